"""A seeded random generator of SQL queries over the TPC-H tables (plus nulls_t) whose
meaning is the same in SQE (Trino semantics) and in DuckDB, for the randomized
differential test (test_random_differential.py).

Every query is built from a small grammar (FROM with inner / left joins and derived
tables, WHERE predicates, GROUP BY with several aggregate kinds and HAVING, window
functions, scalar / correlated / IN / EXISTS subqueries, set operations, ORDER BY with
LIMIT / OFFSET) and tagged with every feature class of FEATURE_CLASSES it exercises.
Query number i is a function of (seed, i) alone: its generator is
random.Random(f"{seed}:{i}") and its main class is FEATURE_CLASSES[i % 10], so one query
can be replayed without the others:

    python -m differential.random_queries --seed 20261205 --index 17

What the grammar avoids on purpose (each a place where Trino and DuckDB legitimately
differ, see docs/dev/differential-testing.md): division (Trino truncates integers), avg()
anywhere but the outermost select list (Trino keeps a decimal rounded to the argument's
scale, DuckDB computes a double), sums of doubles other than nulls_t.f (whose values are
multiples of 1/8, so every sum is exact), date + interval in an output column (DuckDB
makes it a timestamp), implicit NULL ordering (every ORDER BY says NULLS FIRST or LAST),
orderings that are not total where the order matters (row_number, lag, lead, first_value,
ROWS frames, LIMIT: the ORDER BY ends with the unique key of every source), non-ASCII
strings (TPC-H is ASCII) and concat() over NULLs (only ||).
"""

from __future__ import annotations

import argparse
import os
import random
from dataclasses import dataclass, field
from typing import Callable

DEFAULT_SEED = 20261205

FEATURE_CLASSES = ("inner_join", "left_join", "semi_join", "anti_join", "filter", "group_by",
                   "window", "subquery", "order_limit", "set_op")

# Query shapes kept out of the generator because SQE does not match DuckDB there yet:
# {shape: "the engine gap"}. Every entry is a known engine bug or missing feature, named
# in the report of the change that added it; remove the entry once the gap is fixed.
KNOWN_GAPS: dict[str, str] = {
}

INT, DEC, STR, DATE, DBL, BOOL = "int", "dec", "str", "date", "dbl", "bool"
NUMERIC = (INT, DEC, DBL)
ORDERABLE = (INT, DEC, STR, DATE, DBL)

SHIPMODES = ["AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"]
SEGMENTS = ["AUTOMOBILE", "BUILDING", "FURNITURE", "HOUSEHOLD", "MACHINERY"]
PRIORITIES = ["1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"]
REGIONS = ["AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"]
NATIONS = ["ALGERIA", "ARGENTINA", "BRAZIL", "CANADA", "EGYPT", "ETHIOPIA", "FRANCE",
           "GERMANY", "INDIA", "INDONESIA", "IRAN", "IRAQ", "JAPAN", "JORDAN", "KENYA",
           "MOROCCO", "MOZAMBIQUE", "PERU", "CHINA", "ROMANIA", "SAUDI ARABIA", "VIETNAM",
           "RUSSIA", "UNITED KINGDOM", "UNITED STATES"]
CONTAINERS = ["SM BOX", "MED BAG", "LG CASE", "JUMBO PKG", "WRAP DRUM", "SM PACK", "LG CAN",
              "MED JAR"]
INSTRUCTIONS = ["DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"]
TYPE_WORDS = ["ECONOMY", "LARGE", "MEDIUM", "PROMO", "SMALL", "STANDARD", "ANODIZED",
              "BRUSHED", "BURNISHED", "PLATED", "POLISHED", "BRASS", "COPPER", "NICKEL",
              "STEEL", "TIN"]
TEXT_WORDS = ["furiously", "carefully", "quickly", "slyly", "final", "pending", "regular",
              "special", "ironic", "express", "deposits", "requests", "accounts", "packages",
              "blithely", "even", "bold", "the", "ly", "ar", "ts", "in"]
NAME_WORDS = ["green", "blue", "red", "almond", "ivory", "lemon", "navy", "rose", "tan",
              "white", "#00000", "#0001", "#1", "#2", "1", "9", "0"]


def _int_gen(lo: int, hi: int) -> Callable[[random.Random], str]:
    return lambda r: str(r.randint(lo, hi))


def _dec_gen(lo: float, hi: float) -> Callable[[random.Random], str]:
    return lambda r: f"{r.uniform(lo, hi):.2f}"


def _date_gen(lo_year: int, hi_year: int) -> Callable[[random.Random], str]:
    return lambda r: (f"DATE '{r.randint(lo_year, hi_year)}-{r.randint(1, 12):02d}-"
                      f"{r.randint(1, 28):02d}'")


def _choice_gen(values: list[str]) -> Callable[[random.Random], str]:
    return lambda r: "'" + r.choice(values) + "'"


def _eighths_gen(lo: int, hi: int) -> Callable[[random.Random], str]:
    return lambda r: str(r.randint(lo, hi) / 8)


@dataclass(frozen=True)
class Column:
    """One column: its kind, whether it can be NULL, a literal generator that hits its
    value range, the words its LIKE patterns use, and two hints (text: long free text,
    never output raw; group: few distinct values, a good GROUP BY / PARTITION BY key)."""

    name: str
    kind: str
    literal: Callable[[random.Random], str]
    nullable: bool = False
    words: tuple[str, ...] = ()
    text: bool = False
    group: bool = False
    nonneg: bool = True


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[Column, ...]
    key: tuple[str, ...]
    # The column whose range restriction keeps a scan small, and the upper bounds used.
    restrict_column: str | None = None
    restrict_range: tuple[int, int] = (0, 0)

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)


def _c(name, kind, literal, **kw) -> Column:
    return Column(name, kind, literal, **kw)


TABLES: dict[str, Table] = {t.name: t for t in [
    Table("region", (
        _c("r_regionkey", INT, _int_gen(0, 4), group=True),
        _c("r_name", STR, _choice_gen(REGIONS), group=True, words=tuple(REGIONS)),
        _c("r_comment", STR, _choice_gen(TEXT_WORDS), text=True, words=tuple(TEXT_WORDS)),
    ), ("r_regionkey",)),
    Table("nation", (
        _c("n_nationkey", INT, _int_gen(0, 24)),
        _c("n_name", STR, _choice_gen(NATIONS), words=tuple(NATIONS)),
        _c("n_regionkey", INT, _int_gen(0, 4), group=True),
        _c("n_comment", STR, _choice_gen(TEXT_WORDS), text=True, words=tuple(TEXT_WORDS)),
    ), ("n_nationkey",)),
    Table("supplier", (
        _c("s_suppkey", INT, _int_gen(1, 1000)),
        _c("s_name", STR, _choice_gen(["Supplier#000000001"]), words=tuple(NAME_WORDS)),
        _c("s_nationkey", INT, _int_gen(0, 24), group=True),
        _c("s_phone", STR, _choice_gen(["10-", "25-"]), words=("1", "2", "3", "-")),
        _c("s_acctbal", DEC, _dec_gen(-999.99, 9999.99), nonneg=False),
        _c("s_comment", STR, _choice_gen(TEXT_WORDS), text=True, words=tuple(TEXT_WORDS)),
    ), ("s_suppkey",)),
    Table("customer", (
        _c("c_custkey", INT, _int_gen(1, 15000)),
        _c("c_name", STR, _choice_gen(["Customer#000000001"]), words=tuple(NAME_WORDS)),
        _c("c_nationkey", INT, _int_gen(0, 24), group=True),
        _c("c_phone", STR, _choice_gen(["10-", "25-"]), words=("1", "2", "3", "-")),
        _c("c_acctbal", DEC, _dec_gen(-999.99, 9999.99), nonneg=False),
        _c("c_mktsegment", STR, _choice_gen(SEGMENTS), group=True, words=tuple(SEGMENTS)),
        _c("c_comment", STR, _choice_gen(TEXT_WORDS), text=True, words=tuple(TEXT_WORDS)),
    ), ("c_custkey",), "c_custkey", (300, 6000)),
    Table("part", (
        _c("p_partkey", INT, _int_gen(1, 20000)),
        _c("p_name", STR, _choice_gen(NAME_WORDS), words=tuple(NAME_WORDS)),
        _c("p_mfgr", STR, lambda r: f"'Manufacturer#{r.randint(1, 5)}'", group=True,
           words=("#1", "#2", "#3", "Manu")),
        _c("p_brand", STR, lambda r: f"'Brand#{r.randint(1, 5)}{r.randint(1, 5)}'", group=True,
           words=("#1", "#2", "#3", "#4", "#5")),
        _c("p_type", STR, _choice_gen(TYPE_WORDS), words=tuple(TYPE_WORDS)),
        _c("p_size", INT, _int_gen(1, 50)),
        _c("p_container", STR, _choice_gen(CONTAINERS), group=True,
           words=("SM", "LG", "MED", "JUMBO", "WRAP", "BOX", "CASE", "PACK", "BAG")),
        _c("p_retailprice", DEC, _dec_gen(900, 2100)),
    ), ("p_partkey",), "p_partkey", (400, 8000)),
    Table("partsupp", (
        _c("ps_partkey", INT, _int_gen(1, 20000)),
        _c("ps_suppkey", INT, _int_gen(1, 1000)),
        _c("ps_availqty", INT, _int_gen(1, 9999)),
        _c("ps_supplycost", DEC, _dec_gen(1, 1000)),
    ), ("ps_partkey", "ps_suppkey"), "ps_partkey", (200, 3000)),
    Table("orders", (
        _c("o_orderkey", INT, _int_gen(1, 60000)),
        _c("o_custkey", INT, _int_gen(1, 15000)),
        _c("o_orderstatus", STR, _choice_gen(["F", "O", "P"]), group=True, words=("F", "O", "P")),
        _c("o_totalprice", DEC, _dec_gen(1000, 400000)),
        _c("o_orderdate", DATE, _date_gen(1992, 1998)),
        _c("o_orderpriority", STR, _choice_gen(PRIORITIES), group=True,
           words=("1", "2", "URGENT", "HIGH", "LOW", "-")),
        _c("o_clerk", STR, lambda r: f"'Clerk#000000{r.randint(100, 999)}'",
           words=("Clerk#0000001", "Clerk#0000009", "1", "5")),
        _c("o_shippriority", INT, _int_gen(0, 1), group=True),
        _c("o_comment", STR, _choice_gen(TEXT_WORDS), text=True, words=tuple(TEXT_WORDS)),
    ), ("o_orderkey",), "o_orderkey", (2000, 24000)),
    Table("lineitem", (
        _c("l_orderkey", INT, _int_gen(1, 20000)),
        _c("l_partkey", INT, _int_gen(1, 20000)),
        _c("l_suppkey", INT, _int_gen(1, 1000)),
        _c("l_linenumber", INT, _int_gen(1, 7), group=True),
        _c("l_quantity", DEC, _int_gen(1, 50)),
        _c("l_extendedprice", DEC, _dec_gen(1000, 90000)),
        _c("l_discount", DEC, lambda r: f"0.0{r.randint(0, 9)}"),
        _c("l_tax", DEC, lambda r: f"0.0{r.randint(0, 8)}"),
        _c("l_returnflag", STR, _choice_gen(["A", "N", "R"]), group=True, words=("A", "N", "R")),
        _c("l_linestatus", STR, _choice_gen(["F", "O"]), group=True, words=("F", "O")),
        _c("l_shipdate", DATE, _date_gen(1992, 1998)),
        _c("l_commitdate", DATE, _date_gen(1992, 1998)),
        _c("l_receiptdate", DATE, _date_gen(1992, 1998)),
        _c("l_shipinstruct", STR, _choice_gen(INSTRUCTIONS), group=True,
           words=("DELIVER", "COLLECT", "NONE", "RETURN", " ")),
        _c("l_shipmode", STR, _choice_gen(SHIPMODES), group=True, words=tuple(SHIPMODES)),
        _c("l_comment", STR, _choice_gen(TEXT_WORDS), text=True, words=tuple(TEXT_WORDS)),
    ), ("l_orderkey", "l_linenumber"), "l_orderkey", (1000, 8000)),
    Table("nulls_t", (
        _c("id", INT, _int_gen(0, 299)),
        _c("k", INT, _int_gen(0, 24), nullable=True),
        _c("grp", STR, _choice_gen(["a", "b", "c", "d"]), nullable=True, group=True,
           words=("a", "b", "c", "d")),
        _c("amount", DEC, _dec_gen(0, 100), nullable=True),
        _c("d", DATE, _date_gen(1995, 1997), nullable=True),
        _c("f", DBL, _eighths_gen(0, 299), nullable=True),
        _c("flag", BOOL, lambda r: r.choice(["TRUE", "FALSE"]), nullable=True, group=True),
    ), ("id",)),
]}

# Foreign-key style join edges: (table, columns, table, columns).
EDGES: list[tuple[str, tuple[str, ...], str, tuple[str, ...]]] = [
    ("nation", ("n_regionkey",), "region", ("r_regionkey",)),
    ("supplier", ("s_nationkey",), "nation", ("n_nationkey",)),
    ("customer", ("c_nationkey",), "nation", ("n_nationkey",)),
    ("orders", ("o_custkey",), "customer", ("c_custkey",)),
    ("lineitem", ("l_orderkey",), "orders", ("o_orderkey",)),
    ("lineitem", ("l_partkey",), "part", ("p_partkey",)),
    ("lineitem", ("l_suppkey",), "supplier", ("s_suppkey",)),
    ("lineitem", ("l_partkey", "l_suppkey"), "partsupp", ("ps_partkey", "ps_suppkey")),
    ("partsupp", ("ps_partkey",), "part", ("p_partkey",)),
    ("partsupp", ("ps_suppkey",), "supplier", ("s_suppkey",)),
    ("nulls_t", ("k",), "nation", ("n_nationkey",)),
    ("nulls_t", ("k",), "region", ("r_regionkey",)),
    ("nulls_t", ("k",), "nulls_t", ("k",)),
]

# Rows of each table at SF 0.1 (nulls_t: 300), for the row estimates that keep joins small.
TABLE_ROWS = {"region": 5, "nation": 25, "supplier": 1000, "customer": 15000, "part": 20000,
              "partsupp": 80000, "orders": 150000, "lineitem": 600000, "nulls_t": 300}
# Rows a scan restricted to `column <= bound` yields, per unit of the bound.
ROWS_PER_BOUND = {"customer": 1.0, "part": 1.0, "partsupp": 4.0, "orders": 0.25,
                  "lineitem": 1.0}
# A FROM clause whose estimated row count passes this bound gets no further join.
MAX_ESTIMATED_ROWS = 12000

# How often each table starts a FROM clause (small tables more often keep queries fast).
START_WEIGHTS = {"region": 2, "nation": 4, "supplier": 4, "customer": 4, "part": 3,
                 "partsupp": 2, "orders": 4, "lineitem": 4, "nulls_t": 6}


@dataclass(frozen=True)
class GeneratedQuery:
    """One generated query: its number, text and the feature classes it exercises."""

    index: int
    sql: str
    classes: tuple[str, ...]


@dataclass
class Source:
    """A FROM item in scope: a base table or a derived table, under an alias."""

    alias: str
    table: Table
    columns: list[Column]
    key: tuple[str, ...]
    sql: str
    nullable: bool = False  # the inner side of a LEFT JOIN
    rows: float = 1.0  # estimated rows

    def refs(self) -> list[tuple[str, Column]]:
        out = []
        for c in self.columns:
            col = c if not self.nullable or c.nullable else Column(
                c.name, c.kind, c.literal, True, c.words, c.text, c.group, c.nonneg)
            out.append((f"{self.alias}.{c.name}", col))
        return out

    def has(self, names: tuple[str, ...]) -> bool:
        exposed = {c.name for c in self.columns}
        return all(n in exposed for n in names)


@dataclass
class Expr:
    """An expression with what the grammar needs to know about it."""

    sql: str
    kind: str
    nullable: bool = True
    fuzzy: bool = False  # not exactly equal across engines (avg): never an ORDER BY key
    aggregate: bool = False


@dataclass
class Scope:
    sources: list[Source] = field(default_factory=list)

    def refs(self, kinds=None, text=None) -> list[tuple[str, Column]]:
        out = []
        for s in self.sources:
            for sql, c in s.refs():
                if kinds is not None and c.kind not in kinds:
                    continue
                if text is not None and c.text != text:
                    continue
                out.append((sql, c))
        return out

    def key_refs(self) -> list[str]:
        return [f"{s.alias}.{k}" for s in self.sources for k in s.key]


class QueryGenerator:
    """Builds query number `index` for `seed` (see the module docstring)."""

    def __init__(self, seed: int, index: int):
        self.seed = seed
        self.index = index
        self.r = random.Random(f"{seed}:{index}")
        self.tags: set[str] = set()
        self.alias_counter = 0
        self.ctes: list[str] = []
        self.nesting = 0
        self.wide_scans = False
        self.hidden_order_keys: list[str] = []
        # Aggregates whose argument holds a subquery draw from their own stream, so adding
        # them left every other query of a seed as it was.
        self.side = random.Random(f"{seed}:{index}:aggregate-argument")
        self.in_argument_subquery = False

    # --- helpers -----------------------------------------------------------------------

    def alias(self, prefix: str = "t") -> str:
        self.alias_counter += 1
        return f"{prefix}{self.alias_counter}"

    def chance(self, p: float) -> bool:
        return self.r.random() < p

    def gap(self, shape: str) -> bool:
        """Whether `shape` is listed in KNOWN_GAPS (and so must not be generated), unless
        SQE_RANDOM_INCLUDE_GAPS=1 asks for them (to check whether a gap is closed)."""
        return shape in KNOWN_GAPS and os.environ.get("SQE_RANDOM_INCLUDE_GAPS") != "1"

    # --- FROM --------------------------------------------------------------------------

    def base_source(self, table: Table, restrict: bool = True) -> tuple[Source, list[str]]:
        a = self.alias()
        preds = []
        rows = float(TABLE_ROWS[table.name])
        if restrict and table.restrict_column:
            lo, hi = table.restrict_range
            if self.wide_scans and self.chance(0.25):
                # A grouped query may read more: many batches, small result.
                lo, hi = hi, hi * 8
            bound = self.r.randint(lo, hi)
            preds.append(f"{a}.{table.restrict_column} <= {bound}")
            rows = bound * ROWS_PER_BOUND[table.name]
        cols = list(table.columns)
        return Source(a, table, cols, table.key, f"{table.name} AS {a}", rows=rows), preds

    def derived_source(self, scope_depth: int) -> tuple[Source, list[str]]:
        """A derived table (or a CTE): grouped by a join column, filtered, windowed, top-N
        or a UNION of two filters; it keeps the base table's join columns under their
        names."""
        self.tags.add("subquery")
        table = self.r.choice([TABLES[n] for n in ("orders", "lineitem", "customer",
                                                   "supplier", "partsupp", "nulls_t")])
        inner, preds = self.base_source(table)
        inner_scope = Scope([inner])
        shape = self.r.choice(["grouped", "filtered", "window", "topn", "union"])
        if shape == "grouped":
            candidates = [c for c in table.columns if any(
                (e[0] == table.name and c.name in e[1]) or (e[2] == table.name and c.name in e[3])
                for e in EDGES)] or [table.columns[0]]
            gcol = self.r.choice(candidates)
            aggs, cols = [], [gcol]
            for i in range(self.r.randint(1, 3)):
                e = self.aggregate(inner_scope, allow_avg=False)
                aggs.append(f"{e.sql} AS agg{i}")
                cols.append(Column(f"agg{i}", e.kind, self.literal_for_kind(e.kind),
                                   nullable=e.nullable))
            where = preds + ([self.predicate(inner_scope)] if self.chance(0.5) else [])
            body = (f"SELECT {inner.alias}.{gcol.name}, {', '.join(aggs)} FROM {inner.sql}"
                    f"{self.where_sql(where)} GROUP BY {inner.alias}.{gcol.name}")
            if self.chance(0.3):
                body += f" HAVING {self.having(inner_scope)}"
            self.tags.add("group_by")
            key = (gcol.name,)
        else:
            cols = [c for c in table.columns if not c.text]
            keep = [c for c in cols if c.name in table.key or self.chance(0.6)]
            select = [f"{inner.alias}.{c.name}" for c in keep]
            where = preds + ([self.predicate(inner_scope)] if self.chance(0.6) else [])
            cols = list(keep)
            key = table.key
            if shape == "window":
                w = self.window_item(inner_scope)
                select.append(f"{w.sql} AS w0")
                cols.append(Column("w0", w.kind, self.literal_for_kind(w.kind), nullable=True))
            body = f"SELECT {', '.join(select)} FROM {inner.sql}{self.where_sql(where)}"
            if shape == "union":
                # The same columns of the same table twice: UNION keeps the key unique.
                self.tags.add("set_op")
                other = where[:len(preds)] + [self.predicate(inner_scope)]
                body += (f" UNION SELECT {', '.join(select)} FROM {inner.sql}"
                         f"{self.where_sql(other)}")
            if shape == "topn":
                self.tags.add("order_limit")
                order = self.total_order(inner_scope, [f"{inner.alias}.{c.name}" for c in keep])
                body += f" ORDER BY {order} LIMIT {self.r.randint(1, 200)}"
        a = self.alias("d")
        if self.chance(0.3) and scope_depth == 0:
            name = f"cte{len(self.ctes)}"
            self.ctes.append(f"{name} AS ({body})")
            sql = f"{name} AS {a}"
        else:
            sql = f"({body}) AS {a}"
        return Source(a, table, cols, key, sql, rows=inner.rows), []

    def from_clause(self, min_tables: int = 1, max_tables: int = 3, want_inner: bool = False,
                    want_left: bool = False, derived: float = 0.12,
                    depth: int = 0) -> tuple[Scope, str, list[str]]:
        """A scope of 1..max_tables sources joined along EDGES; returns (scope, FROM
        text, WHERE conjuncts that restrict the big tables)."""
        r = self.r
        n = r.randint(min_tables, max_tables)
        if want_inner or want_left:
            n = max(n, 2)
        if depth == 0 and r.random() < derived:
            first, where = self.derived_source(depth)
        else:
            name = r.choices(list(START_WEIGHTS), weights=list(START_WEIGHTS.values()))[0]
            first, where = self.base_source(TABLES[name])
        scope = Scope([first])
        text = first.sql
        join_kinds = []
        estimate = first.rows
        for j in range(1, n):
            options = []
            for s in scope.sources:
                for lt, lc, rt, rc in EDGES:
                    # Towards the referenced (one) side the row count stays.
                    if lt == s.table.name and s.has(lc) and lt != rt:
                        options.append((s, lc, TABLES[rt], rc, False))
                    if rt == s.table.name and s.has(rc):
                        options.append((s, rc, TABLES[lt], lc, True))
            if not options:
                break
            s, cols, other, other_cols, fans_out = r.choice(options)
            new, preds = self.base_source(other)
            # Children per parent row: the tables' full sizes (a restriction only lowers it).
            fan = TABLE_ROWS[other.name] / TABLE_ROWS[s.table.name] if other != s.table else 12
            grown = estimate * fan if fans_out else estimate
            if grown > MAX_ESTIMATED_ROWS:
                new, preds = None, []
                for s, cols, other, other_cols, fans_out in options:
                    if not fans_out:
                        new, preds = self.base_source(other)
                        break
                if new is None:
                    break
            else:
                estimate = max(estimate, grown)
            kind = "inner"
            if want_left and "left" not in join_kinds and j == n - 1:
                kind = "left"
            elif want_inner and "inner" not in join_kinds and j == n - 1:
                kind = "inner"
            elif r.random() < 0.3:
                kind = "left"
            on = " AND ".join(f"{s.alias}.{a} = {new.alias}.{b}" for a, b in zip(cols, other_cols))
            if kind == "left":
                new.nullable = True
                on_extra = preds
                if r.random() < 0.35:
                    on_extra = on_extra + [self.predicate(Scope([new]), depth=1)]
                if r.random() < 0.1:
                    # Uncorrelated only: DuckDB cannot run a correlated one in an outer ON.
                    cond = self.semi_anti(Scope([new]), anti=r.random() < 0.4, correlated=False)
                    if cond:
                        on_extra = on_extra + [cond]
                on = " AND ".join([on] + on_extra)
                text += f" LEFT JOIN {new.sql} ON {on}"
                self.tags.add("left_join")
            else:
                where = where + preds
                if r.random() < 0.15:
                    on = on + " AND " + self.predicate(Scope([new]), depth=1)
                if r.random() < 0.1:
                    cond = self.semi_anti(Scope(scope.sources + [new]), anti=r.random() < 0.4)
                    if cond:
                        on = on + " AND " + cond
                text += f" {'JOIN' if r.random() < 0.5 else 'INNER JOIN'} {new.sql} ON {on}"
                self.tags.add("inner_join")
            join_kinds.append(kind)
            scope.sources.append(new)
        if depth == 0 and estimate < 4000 and r.random() < 0.12:
            # An outer join with a small unrestricted table on either side.
            small = r.choice([TABLES[n] for n in ("nation", "region", "supplier", "nulls_t")])
            new, _ = self.base_source(small, restrict=False)
            # Only towards the referenced side, so the row count does not grow.
            options = [(s, lc, rc) for s in scope.sources for lt, lc, rt, rc in EDGES
                       if lt == s.table.name and rt == small.name and lt != rt and s.has(lc)]
            if options:
                s, cols, other_cols = r.choice(options)
                on = " AND ".join(f"{s.alias}.{a} = {new.alias}.{b}"
                                  for a, b in zip(cols, other_cols))
                word = r.choice(["FULL JOIN", "FULL OUTER JOIN", "RIGHT JOIN"])
                for old in scope.sources:
                    old.nullable = True
                if word.startswith("FULL"):
                    new.nullable = True
                text += f" {word} {new.sql} ON {on}"
                scope.sources.append(new)
        return scope, text, where

    @staticmethod
    def where_sql(conjuncts: list[str]) -> str:
        return f" WHERE {' AND '.join(conjuncts)}" if conjuncts else ""

    # --- expressions -------------------------------------------------------------------

    def literal_for_kind(self, kind: str) -> Callable[[random.Random], str]:
        return {INT: _int_gen(0, 100), DEC: _dec_gen(0, 1000), STR: _choice_gen(["a", "M"]),
                DATE: _date_gen(1993, 1997), DBL: _eighths_gen(0, 200),
                BOOL: lambda r: "TRUE"}[kind]

    def column(self, scope: Scope, kinds=ORDERABLE, text=False) -> tuple[str, Column] | None:
        refs = scope.refs(kinds, text)
        return self.r.choice(refs) if refs else None

    def value(self, scope: Scope, kind: str, depth: int = 0) -> Expr:
        """A scalar expression of `kind` over the scope's columns."""
        r = self.r
        ref = self.column(scope, (kind,))
        if ref is None:
            if kind == INT:
                s = self.column(scope, (STR,), text=None)
                if s:
                    return Expr(f"length({s[0]})", INT, s[1].nullable)
            return Expr(self.literal_for_kind(kind)(r), kind, False)
        sql, col = ref
        e = Expr(sql, kind, col.nullable)
        if depth >= 2 or r.random() < 0.45:
            return e
        if r.random() < 0.2:
            extra = self.more_functions(scope, kind, sql, col)
            if extra is not None:
                return extra
        roll = r.random()
        if kind == INT:
            if roll < 0.2:
                return Expr(f"({sql} + {r.randint(1, 50)})", INT, col.nullable)
            if roll < 0.35 and col.nonneg:
                return Expr(f"({sql} % {r.randint(2, 9)})", INT, col.nullable)
            if roll < 0.45:
                other = self.value(scope, INT, depth + 1)
                return Expr(f"({sql} - {other.sql})", INT, col.nullable or other.nullable)
            if roll < 0.55:
                d = self.column(scope, (DATE,))
                if d:
                    part = r.choice(["year", "month", "day", "quarter"])
                    return Expr(f"extract({part} FROM {d[0]})", INT, d[1].nullable)
            if roll < 0.65:
                s = self.column(scope, (STR,), text=None)
                if s:
                    return Expr(f"length({s[0]})", INT, s[1].nullable)
            if roll < 0.75 and col.nullable:
                return Expr(f"coalesce({sql}, {r.randint(-5, 30)})", INT, False)
            if roll < 0.82:
                d = scope.refs((DATE,))
                if len(d) >= 1:
                    a, b = r.choice(d), r.choice(d)
                    return Expr(f"date_diff('day', {a[0]}, {b[0]})", INT,
                                a[1].nullable or b[1].nullable)
            if roll < 0.9:
                return Expr(f"abs({sql} - {r.randint(0, 20)})", INT, col.nullable)
            return self.case_expr(scope, INT, depth)
        if kind == DEC:
            if roll < 0.2:
                other = self.value(scope, DEC, depth + 1)
                return Expr(f"({sql} {r.choice(['+', '-'])} {other.sql})", DEC,
                            col.nullable or other.nullable)
            if roll < 0.4:
                return Expr(f"({sql} * (1 - 0.{r.randint(1, 9)}))", DEC, col.nullable)
            if roll < 0.5:
                return Expr(f"({sql} * {r.randint(2, 5)})", DEC, col.nullable)
            if roll < 0.6:
                return Expr(f"round({sql}, {r.randint(0, 1)})", DEC, col.nullable)
            if roll < 0.7 and col.nullable:
                return Expr(f"coalesce({sql}, 0)", DEC, False)
            if roll < 0.8:
                return Expr(f"abs({sql})", DEC, col.nullable)
            return self.case_expr(scope, DEC, depth)
        if kind == STR:
            if roll < 0.15:
                return Expr(f"upper({sql})", STR, col.nullable)
            if roll < 0.3:
                return Expr(f"lower({sql})", STR, col.nullable)
            if roll < 0.45:
                return Expr(f"substr({sql}, {r.randint(1, 4)}, {r.randint(1, 6)})", STR,
                            col.nullable)
            if roll < 0.6:
                other = self.value(scope, STR, depth + 1)
                return Expr(f"({sql} || '-' || {other.sql})", STR,
                            col.nullable or other.nullable)
            if roll < 0.7 and col.nullable:
                return Expr(f"coalesce({sql}, 'none')", STR, False)
            if roll < 0.78:
                return Expr(f"replace({sql}, '{r.choice('AEIOaeio')}', '*')", STR, col.nullable)
            if roll < 0.84:
                return Expr(f"trim({sql})", STR, col.nullable)
            return self.case_expr(scope, STR, depth)
        if kind == DBL:
            if roll < 0.4:
                return Expr(f"({sql} * 2 + 0.5)", DBL, col.nullable)
            if roll < 0.6 and col.nullable:
                return Expr(f"coalesce({sql}, -1.0)", DBL, False)
            return Expr(f"abs({sql} - {r.randint(0, 30)})", DBL, col.nullable)
        if kind == DATE and col.nullable and roll < 0.4:
            return Expr(f"coalesce({sql}, DATE '1990-01-01')", DATE, False)
        return e

    def more_functions(self, scope: Scope, kind: str, sql: str, col: Column) -> Expr | None:
        """Scalar functions both engines define alike (over ASCII and exact numbers)."""
        r = self.r
        n = col.nullable
        if kind == INT:
            s = self.column(scope, (STR,))
            d = self.column(scope, (DEC,))
            options = [
                lambda: Expr(f"sign({sql} - {r.randint(0, 20)})", INT, n),
                lambda: Expr(f"mod({sql}, {r.randint(2, 9)})", INT, n) if col.nonneg else None,
                lambda: (Expr(f"strpos({s[0]}, '{r.choice(s[1].words or ('a',))[:2]}')", INT,
                              s[1].nullable) if s else None),
                lambda: (Expr(f"CAST({d[0]} AS bigint)", INT, d[1].nullable) if d else None),
                lambda: (Expr(f"greatest({sql}, {r.randint(0, 30)})", INT, n) if not n else None),
                lambda: (Expr(f"least({sql}, {r.randint(0, 30)})", INT, n) if not n else None),
            ]
        elif kind == DEC:
            options = [
                lambda: Expr(f"ceil({sql})", DEC, n),
                lambda: Expr(f"floor({sql})", DEC, n),
                lambda: Expr(f"round({sql}, -1)", DEC, n),
                lambda: Expr(f"(-{sql})", DEC, n),
                lambda: Expr(f"({sql} * {sql})", DEC, n),
            ]
        elif kind == STR:
            i = self.column(scope, (INT,))
            options = [
                lambda: Expr(f"lpad({sql}, {r.randint(1, 12)}, '*')", STR, n),
                lambda: Expr(f"rpad({sql}, {r.randint(1, 12)}, '.')", STR, n),
                lambda: Expr(f"reverse({sql})", STR, n),
                lambda: Expr(f"ltrim(' ' || {sql})", STR, n),
                lambda: Expr(f"rtrim({sql} || '  ')", STR, n),
                lambda: (Expr(f"CAST({i[0]} AS varchar)", STR, i[1].nullable) if i else None),
            ]
        else:
            return None
        return r.choice(options)()

    def case_expr(self, scope: Scope, kind: str, depth: int) -> Expr:
        r = self.r
        self.tags.add("filter")
        branches = []
        for _ in range(r.randint(1, 3)):
            branches.append(f"WHEN {self.predicate(scope, depth + 1)} THEN "
                            f"{self.value(scope, kind, depth + 1).sql}")
        if kind == STR and r.random() < 0.6:
            branches = [f"WHEN {self.predicate(scope, depth + 1)} THEN '{w}'"
                        for w in r.sample(["low", "mid", "high", "x"], r.randint(1, 3))]
            tail = " ELSE 'other'" if r.random() < 0.7 else ""
        else:
            tail = f" ELSE {self.value(scope, kind, depth + 1).sql}" if r.random() < 0.7 else ""
        return Expr(f"CASE {' '.join(branches)}{tail} END", kind, True)

    def predicate(self, scope: Scope, depth: int = 0) -> str:
        """A boolean condition over the scope (comparisons, BETWEEN, IN, LIKE, IS NULL,
        AND/OR/NOT, CASE)."""
        r = self.r
        self.tags.add("filter")
        roll = r.random()
        if depth < 2 and roll < 0.22:
            op = r.choice(["AND", "OR", "AND"])
            a, b = self.predicate(scope, depth + 1), self.predicate(scope, depth + 1)
            return f"({a} {op} {b})"
        if depth < 2 and roll < 0.27:
            return f"NOT ({self.predicate(scope, depth + 1)})"
        if depth < 2 and roll < 0.3:
            return (f"CASE WHEN {self.predicate(scope, depth + 1)} THEN "
                    f"{self.predicate(scope, depth + 1)} ELSE "
                    f"{self.predicate(scope, depth + 1)} END")
        ref = self.column(scope, ORDERABLE + (BOOL,), text=None)
        sql, col = ref
        if col.kind == STR and not col.text and r.random() < 0.05:
            return f"starts_with({sql}, '{r.choice(col.words or ('a',))[:3]}')"
        if col.kind == BOOL:
            return r.choice([sql, f"NOT {sql}", f"{sql} IS NULL", f"{sql} IS NOT NULL",
                             f"{sql} = {col.literal(r)}"])
        if col.text or (col.kind == STR and r.random() < 0.3):
            words = col.words or ("a",)
            w = r.choice(words)
            pattern = r.choice([f"%{w}%", f"{w}%", f"%{w}", f"%{w}%{r.choice(words)}%",
                                f"_{w[1:]}%" if len(w) > 1 else f"%{w}_%"])
            neg = "NOT " if r.random() < 0.2 else ""
            return f"{sql} {neg}LIKE '{pattern}'"
        if col.nullable and r.random() < 0.2:
            return f"{sql} IS {'NOT ' if r.random() < 0.5 else ''}NULL"
        pick = r.random()
        if pick < 0.45:
            op = r.choice(["=", "<>", "<", "<=", ">", ">="])
            if col.kind in (INT, DEC) and r.random() < 0.3:
                value = self.value(scope, col.kind, depth + 1).sql
                return f"{value} {op} {col.literal(r)}"
            return f"{sql} {op} {col.literal(r)}"
        if pick < 0.6 and col.kind != STR:
            a, b = sorted([col.literal(r), col.literal(r)], key=_literal_sort_key)
            neg = "NOT " if r.random() < 0.15 else ""
            return f"{sql} {neg}BETWEEN {a} AND {b}"
        if pick < 0.75:
            values = sorted({col.literal(r) for _ in range(r.randint(1, 5))})
            neg = "NOT " if r.random() < 0.25 else ""
            return f"{sql} {neg}IN ({', '.join(values)})"
        if pick < 0.85 and col.kind == DATE:
            return (f"{sql} {r.choice(['<', '>=', '<='])} {col.literal(r)} + INTERVAL "
                    f"'{r.randint(1, 90)}' DAY")
        same = [x for x in scope.refs((col.kind,)) if x[0] != sql]
        if same:
            other = r.choice(same)
            return f"{sql} {r.choice(['=', '<>', '<', '>=', '<='])} {other[0]}"
        return f"{sql} {r.choice(['<', '>='])} {col.literal(r)}"

    # --- aggregates and windows --------------------------------------------------------

    def aggregate(self, scope: Scope, allow_avg: bool = True) -> Expr:
        subquery_class = FEATURE_CLASSES[self.index % len(FEATURE_CLASSES)] == "subquery"
        if not self.in_argument_subquery and not self.gap("aggregate_argument_subquery") and \
                self.side.random() < (0.3 if subquery_class else 0.02):
            agg = self.aggregate_over_subquery(scope)
            if agg is not None:
                return agg
        r = self.r
        roll = r.random()
        if roll < 0.15:
            return Expr("count(*)", INT, False, aggregate=True)
        if roll < 0.25:
            v = self.value(scope, r.choice([INT, STR, DEC]), 1)
            return Expr(f"count({v.sql})", INT, False, aggregate=True)
        if roll < 0.37:
            v = self.value(scope, r.choice([INT, STR, DATE]), 1)
            return Expr(f"count(DISTINCT {v.sql})", INT, False, aggregate=True)
        if roll < 0.55:
            v = self.value(scope, r.choice([INT, DEC, DEC, DBL]), 1)
            return Expr(f"sum({v.sql})", v.kind, True, aggregate=True)
        if roll < 0.65 and allow_avg:
            v = self.value(scope, r.choice([INT, DEC, DBL]), 1)
            return Expr(f"avg({v.sql})", DBL if v.kind != DEC else DEC, True, fuzzy=True,
                        aggregate=True)
        if roll < 0.85:
            kind = r.choice([INT, DEC, STR, DATE])
            v = self.value(scope, kind, 1)
            return Expr(f"{r.choice(['min', 'max'])}({v.sql})", v.kind, True, aggregate=True)
        if roll < 0.88:
            # Not count_if(): DuckDB's returns NULL over no rows, Trino's 0.
            return Expr(f"count(CASE WHEN {self.predicate(scope, 1)} THEN 1 END)", INT, False,
                        aggregate=True)
        if roll < 0.93:
            v = self.value(scope, r.choice([INT, DEC]), 1)
            fn = r.choice(["sum", "count", "max", "sum(DISTINCT"])
            call = f"sum(DISTINCT {v.sql})" if fn == "sum(DISTINCT" else f"{fn}({v.sql})"
            kind = INT if fn == "count" else v.kind
            return Expr(f"{call} FILTER (WHERE {self.predicate(scope, 1)})", kind,
                        fn != "count", aggregate=True)
        if roll < 0.94 and len(scope.sources) == 1 and len(scope.sources[0].key) == 1:
            # min_by / max_by by the unique key (no ties) of a non-null value (DuckDB skips
            # rows whose value is NULL, Trino returns that NULL).
            values = [x for x in scope.refs(ORDERABLE, text=False) if not x[1].nullable]
            if values:
                x = r.choice(values)
                key = scope.key_refs()[0]
                return Expr(f"{r.choice(['min_by', 'max_by'])}({x[0]}, {key})", x[1].kind,
                            True, aggregate=True)
        if roll < 0.95:
            b = self.column(scope, (BOOL,))
            if b:
                return Expr(f"{r.choice(['bool_and', 'bool_or'])}({b[0]})", BOOL, True,
                            aggregate=True)
        v = self.value(scope, r.choice([INT, DEC]), 1)
        return Expr(f"sum(CASE WHEN {self.predicate(scope, 1)} THEN {v.sql} ELSE 0 END)",
                    v.kind, True, aggregate=True)

    def aggregate_over_subquery(self, scope: Scope) -> Expr | None:
        """An aggregate whose argument or FILTER holds a subquery (scalar, EXISTS, IN,
        quantified; correlated to `scope` or not), drawn from self.side."""
        main, self.r = self.r, self.side
        self.in_argument_subquery = True
        try:
            r = self.r
            roll = r.random()
            if roll < 0.4:
                sub = self.scalar_subquery(scope, correlated=r.random() < 0.8)
                if sub is None:
                    return None
                if sub.kind in (INT, DEC) and r.random() < 0.6:
                    fn = r.choice(["sum", "sum(DISTINCT"])
                    call = f"sum(DISTINCT {sub.sql})" if fn == "sum(DISTINCT" else \
                        f"sum({sub.sql})"
                    return Expr(call, sub.kind, True, aggregate=True)
                if r.random() < 0.5:
                    return Expr(f"{r.choice(['min', 'max'])}({sub.sql})", sub.kind, True,
                                aggregate=True)
                distinct = "DISTINCT " if r.random() < 0.5 else ""
                return Expr(f"count({distinct}{sub.sql})", INT, False, aggregate=True)
            cond = self.semi_anti(scope, anti=r.random() < 0.4) if roll < 0.85 else \
                self.subquery_predicate(scope)
            if cond is None:
                return None
            shape = r.random()
            if shape < 0.35:
                # Not count_if(): DuckDB's returns NULL over no rows, Trino's 0.
                return Expr(f"count(CASE WHEN {cond} THEN 1 END)", INT, False, aggregate=True)
            if shape < 0.55:
                return Expr(f"count(*) FILTER (WHERE {cond})", INT, False, aggregate=True)
            v = self.value(scope, r.choice([INT, DEC]), 1)
            if shape < 0.8:
                return Expr(f"sum({v.sql}) FILTER (WHERE {cond})", v.kind, True,
                            aggregate=True)
            return Expr(f"sum(CASE WHEN {cond} THEN {v.sql} ELSE 0 END)", v.kind, True,
                        aggregate=True)
        finally:
            self.r = main
            self.in_argument_subquery = False

    def having(self, scope: Scope) -> str:
        r = self.r
        parts = []
        for _ in range(r.randint(1, 2)):
            roll = r.random()
            if roll < 0.4:
                parts.append(f"count(*) {r.choice(['>', '>=', '<', '='])} {r.randint(1, 5)}")
            elif roll < 0.7:
                ref = self.column(scope, (INT, DEC))
                if ref is None:
                    parts.append(f"count(*) > {r.randint(0, 3)}")
                    continue
                agg = r.choice(["sum", "min", "max"])
                parts.append(f"{agg}({ref[0]}) {r.choice(['>', '<', '>='])} {ref[1].literal(r)}")
            else:
                v = self.value(scope, r.choice([INT, STR]), 1)
                parts.append(f"count(DISTINCT {v.sql}) {r.choice(['>', '>=', '<'])} "
                             f"{r.randint(1, 3)}")
        return f" {r.choice(['AND', 'OR'])} ".join(parts)

    def order_items(self, exprs: list[str]) -> str:
        r = self.r
        return ", ".join(f"{e} {r.choice(['ASC', 'DESC'])} NULLS {r.choice(['FIRST', 'LAST'])}"
                         for e in exprs)

    def total_order(self, scope: Scope, leading: list[str]) -> str:
        """An ORDER BY list: some of `leading`, then every source's key (so it is total)."""
        r = self.r
        first = r.sample(leading, min(len(leading), r.randint(0, 2)))
        keys = [k for k in scope.key_refs() if k not in first]
        return self.order_items(first + keys)

    def window_item(self, scope: Scope, grouped_aggs: list[Expr] | None = None,
                    group_keys: list[str] | None = None) -> Expr:
        """A window function call. Over a grouped query (grouped_aggs given) it orders by
        aggregates and the group keys; otherwise by columns and, when the function needs a
        total order, the sources' keys."""
        r = self.r
        self.tags.add("window")
        if grouped_aggs is not None:
            exact = [a for a in grouped_aggs if not a.fuzzy]
            order_on = [a.sql for a in r.sample(exact, min(len(exact), r.randint(0, 1)))]
            total = self.order_items(order_on + (group_keys or []))
            ties = self.order_items(order_on or (group_keys or [])[:1])
            fn = r.choice(["rank", "dense_rank", "row_number", "sum", "lag", "count"])
            part = ""
            if group_keys and len(group_keys) > 1 and r.random() < 0.5:
                part = f"PARTITION BY {group_keys[0]} "
            if fn in ("rank", "dense_rank"):
                return Expr(f"{fn}() OVER ({part}ORDER BY {ties or total})", INT, False)
            if fn == "row_number":
                return Expr(f"row_number() OVER ({part}ORDER BY {total})", INT, False)
            if fn == "count":
                return Expr(f"count(*) OVER ({part.strip()})", INT, False)
            numeric = [a for a in exact if a.kind in (INT, DEC)]
            target = r.choice(numeric) if numeric else Expr("count(*)", INT, False)
            if fn == "lag":
                return Expr(f"lag({target.sql}) OVER ({part}ORDER BY {total})", target.kind)
            return Expr(f"sum({target.sql}) OVER ({part}ORDER BY {total} ROWS BETWEEN "
                        f"UNBOUNDED PRECEDING AND CURRENT ROW)", target.kind)
        groups = [x[0] for x in scope.refs(text=False) if x[1].group]
        part_cols = r.sample(groups, min(len(groups), r.randint(0, 2)))
        if r.random() < 0.15:
            part_cols.append(self.value(scope, r.choice([INT, STR]), 1).sql)
        # No key twice: DuckDB 1.5.5 miscounts `PARTITION BY g, g` beside another window
        # partitioned by (g, x) (it answers as if partitioned by g alone).
        part_cols = list(dict.fromkeys(part_cols))
        part = f"PARTITION BY {', '.join(part_cols)} " if part_cols else ""
        plain = [x[0] for x in scope.refs(ORDERABLE, text=False)]
        total = self.total_order(scope, plain)
        ties = self.order_items(r.sample(plain, min(len(plain), r.randint(1, 2))))
        fn = r.choice(["row_number", "rank", "dense_rank", "lag", "lead", "sum_rows",
                       "sum_range", "sum_part", "first_value", "count", "min_max", "ntile",
                       "percent_rank", "range_offset", "groups", "nth_value"])
        if fn == "range_offset" and r.random() < 0.4:
            keyed = scope.refs((DATE, DEC), text=False)
            if keyed:
                key, col = r.choice(keyed)
                unit = (lambda n: f"INTERVAL '{n}' DAY") if col.kind == DATE else \
                    (lambda n: f"{n}.5")
                v = self.value(scope, r.choice([INT, DEC]), 1)
                lo = r.choice(["UNBOUNDED PRECEDING", f"{unit(r.randint(1, 30))} PRECEDING",
                               "CURRENT ROW"])
                hi = r.choice(["CURRENT ROW", f"{unit(r.randint(1, 30))} FOLLOWING"])
                return Expr(f"sum({v.sql}) OVER ({part}ORDER BY {key} "
                            f"{r.choice(['ASC', 'DESC'])} NULLS {r.choice(['FIRST', 'LAST'])} "
                            f"RANGE BETWEEN {lo} AND {hi})", v.kind)
        if fn == "range_offset":
            numeric = [x for x in scope.refs((INT,), text=False)]
            if numeric:
                key = r.choice(numeric)[0]
                v = self.value(scope, r.choice([INT, DEC]), 1)
                lo = r.choice(["UNBOUNDED PRECEDING", f"{r.randint(1, 5)} PRECEDING",
                               "CURRENT ROW"])
                hi = r.choice(["CURRENT ROW", f"{r.randint(1, 5)} FOLLOWING"])
                agg = r.choice(["sum", "count", "min", "max"])
                return Expr(f"{agg}({v.sql}) OVER ({part}ORDER BY {key} "
                            f"{r.choice(['ASC', 'DESC'])} NULLS {r.choice(['FIRST', 'LAST'])} "
                            f"RANGE BETWEEN {lo} AND {hi})", INT if agg == "count" else v.kind)
            fn = "sum_range"
        if fn == "groups":
            v = self.value(scope, r.choice([INT, DEC]), 1)
            return Expr(f"sum({v.sql}) OVER ({part}ORDER BY {ties} GROUPS BETWEEN "
                        f"{r.randint(0, 2)} PRECEDING AND {r.randint(0, 2)} FOLLOWING)", v.kind)
        if fn == "nth_value":
            v = self.value(scope, r.choice([INT, DEC, STR]), 1)
            return Expr(f"nth_value({v.sql}, {r.randint(1, 3)}) OVER ({part}ORDER BY {total} "
                        f"ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)", v.kind)
        if fn == "row_number":
            return Expr(f"row_number() OVER ({part}ORDER BY {total})", INT, False)
        if fn in ("rank", "dense_rank"):
            return Expr(f"{fn}() OVER ({part}ORDER BY {ties})", INT, False)
        if fn == "percent_rank":
            f2 = r.choice(["percent_rank", "cume_dist"])
            return Expr(f"{f2}() OVER ({part}ORDER BY {ties})", DBL, False)
        if fn == "ntile":
            return Expr(f"ntile({r.randint(2, 5)}) OVER ({part}ORDER BY {total})", INT, False)
        if fn in ("lag", "lead"):
            v = self.value(scope, r.choice([INT, DEC, STR, DATE]), 1)
            off = f", {r.randint(1, 3)}" if r.random() < 0.4 else ""
            if off and v.kind in (INT, STR) and r.random() < 0.4:
                # A default of the argument's type (SQE wants exactly that type).
                off += ", -1" if v.kind == INT else ", 'none'"
            return Expr(f"{fn}({v.sql}{off}) OVER ({part}ORDER BY {total})", v.kind)
        if fn == "first_value":
            v = self.value(scope, r.choice([INT, DEC, STR]), 1)
            f2 = r.choice(["first_value", "last_value"])
            frame = r.choice(["", " ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING",
                              " ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING"])
            return Expr(f"{f2}({v.sql}) OVER ({part}ORDER BY {total}{frame})", v.kind)
        if fn == "count":
            return Expr(f"count(*) OVER ({part.strip()})", INT, False)
        v = self.value(scope, r.choice([INT, DEC]), 1)
        if fn == "sum_rows":
            lo = r.choice(["UNBOUNDED PRECEDING", f"{r.randint(1, 3)} PRECEDING", "CURRENT ROW"])
            hi = r.choice(["CURRENT ROW", f"{r.randint(1, 3)} FOLLOWING", "UNBOUNDED FOLLOWING"])
            return Expr(f"sum({v.sql}) OVER ({part}ORDER BY {total} ROWS BETWEEN {lo} AND {hi})",
                        v.kind)
        if fn == "sum_range":
            return Expr(f"sum({v.sql}) OVER ({part}ORDER BY {ties})", v.kind)
        if fn == "min_max":
            return Expr(f"{r.choice(['min', 'max'])}({v.sql}) OVER ({part.strip()})", v.kind)
        return Expr(f"sum({v.sql}) OVER ({part.strip()})", v.kind)

    # --- subqueries in predicates and select lists -------------------------------------

    def related(self, scope: Scope) -> tuple[str, Column, Table, str] | None:
        """(outer column sql, outer column, inner table, inner column) along an edge."""
        options = []
        for s in scope.sources:
            for lt, lc, rt, rc in EDGES:
                if len(lc) != 1:
                    continue
                if lt == s.table.name and s.has(lc):
                    options.append((s, lc[0], TABLES[rt], rc[0]))
                if rt == s.table.name and s.has(rc):
                    options.append((s, rc[0], TABLES[lt], lc[0]))
        if not options:
            return None
        s, oc, table, ic = self.r.choice(options)
        col = dict((c.name, c) for c in s.columns)[oc]
        nullable = col.nullable or s.nullable
        return f"{s.alias}.{oc}", Column(oc, col.kind, col.literal, nullable), table, ic

    def semi_anti(self, scope: Scope, anti: bool, correlated: bool = True) -> str | None:
        rel = self.related(scope)
        if rel is None:
            return None
        outer_sql, outer_col, table, inner_col = rel
        inner, preds = self.base_source(table)
        inner_scope = Scope([inner])
        if self.chance(0.7):
            preds = preds + [self.predicate(inner_scope, 1)]
        if self.nesting < 2 and self.chance(0.15):
            # A subquery inside the subquery.
            # Its correlation may reach the outer query too (two levels up).
            self.nesting += 1
            outer = scope.sources if self.chance(0.5) and not self.gap("nested_correlation") \
                else []
            reach = Scope(inner_scope.sources + outer)
            nested = self.semi_anti(reach, anti=self.chance(0.4))
            self.nesting -= 1
            if nested:
                preds = preds + [nested]
        self.tags.add("subquery")
        self.tags.add("anti_join" if anti else "semi_join")
        form = self.r.random() if correlated else 0.99
        inner_ref = f"{inner.alias}.{inner_col}"
        inner_nullable = table.column(inner_col).nullable
        if form < 0.5:
            where = self.where_sql([f"{inner_ref} = {outer_sql}"] + preds)
            return f"{'NOT ' if anti else ''}EXISTS (SELECT 1 FROM {inner.sql}{where})"
        if anti and (inner_nullable or outer_col.nullable):
            # NOT IN over NULLs is well defined but a different question; keep it to
            # non-null columns as the corpus does (the NULL cases live in corpus.py).
            preds = preds + [f"{inner_ref} IS NOT NULL"]
            if outer_col.nullable:
                return (f"({outer_sql} IS NOT NULL AND {outer_sql} NOT IN (SELECT {inner_ref} "
                        f"FROM {inner.sql}{self.where_sql(preds)}))")
        where = self.where_sql(preds)
        if form < 0.6 and not self.gap("quantified"):
            op = "<> ALL" if anti else "= ANY"
            return f"{outer_sql} {op} (SELECT {inner_ref} FROM {inner.sql}{where})"
        if form < 0.68 and correlated:
            # A correlated IN: the subquery also refers to an outer column.
            other = [x for x in scope.refs((INT,), text=False) if not x[1].nullable]
            if other:
                extra = f"{inner_ref} <> {self.r.choice(other)[0]}"
                where = self.where_sql(preds + [extra])
        negation = "NOT " if anti else ""
        return f"{outer_sql} {negation}IN (SELECT {inner_ref} FROM {inner.sql}{where})"

    def subquery_predicate(self, scope: Scope) -> str | None:
        """A predicate with a subquery in an unusual place: under OR, inside CASE, a
        quantified comparison other than = ANY, or an IN used as a value."""
        r = self.r
        roll = r.random()
        if roll < 0.3:
            cond = self.semi_anti(scope, anti=r.random() < 0.4)
            return f"({self.predicate(scope, 1)} OR {cond})" if cond else None
        if roll < 0.5:
            cond = self.semi_anti(scope, anti=r.random() < 0.4)
            if not cond:
                return None
            return (f"CASE WHEN {cond} THEN {self.predicate(scope, 1)} ELSE "
                    f"{self.predicate(scope, 1)} END")
        self.tags.add("subquery")
        ref = self.column(scope, (INT, DEC, DATE))
        if ref is None:
            return None
        table = r.choice([t for t in TABLES.values()
                          if any(c.kind == ref[1].kind and not c.text for c in t.columns)])
        inner, preds = self.base_source(table)
        col = r.choice([c for c in table.columns if c.kind == ref[1].kind])
        if col.nullable and r.random() < 0.5:
            preds.append(f"{inner.alias}.{col.name} IS NOT NULL")
        preds.append(self.predicate(Scope([inner]), 1))
        op = r.choice(["<", ">", "<=", ">="]) + " " + r.choice(["ANY", "ALL", "SOME"])
        return f"{ref[0]} {op} (SELECT {inner.alias}.{col.name} FROM {inner.sql}" \
               f"{self.where_sql(preds)})"

    def scalar_subquery(self, scope: Scope, correlated: bool) -> Expr | None:
        self.tags.add("subquery")
        if correlated:
            rel = self.related(scope)
            if rel is None:
                return None
            outer_sql, _, table, inner_col = rel
            inner, preds = self.base_source(table)
            preds = [f"{inner.alias}.{inner_col} = {outer_sql}"] + preds
            if self.chance(0.3):
                # A second, non-equal correlation.
                pairs = [(i, o) for i in Scope([inner]).refs((INT, DEC, DATE), text=False)
                         for o in scope.refs((INT, DEC, DATE), text=False)
                         if i[1].kind == o[1].kind]
                if pairs:
                    i, o = self.r.choice(pairs)
                    preds.append(f"{i[0]} {self.r.choice(['<', '>', '<=', '<>'])} {o[0]}")
        else:
            table = TABLES[self.r.choice(list(TABLES))]
            inner, preds = self.base_source(table)
        inner_scope = Scope([inner])
        if self.chance(0.5):
            preds.append(self.predicate(inner_scope, 1))
        agg = self.aggregate(inner_scope, allow_avg=False)
        return Expr(f"(SELECT {agg.sql} FROM {inner.sql}{self.where_sql(preds)})", agg.kind,
                    True)

    # --- whole queries -----------------------------------------------------------------

    def select_query(self, target: str, kinds: list[str] | None = None,
                     nested: bool = False) -> tuple[str, list[Expr], bool]:
        """One SELECT block. Returns (sql, output expressions, rows unique on their
        exact columns). `kinds` forces the output kinds (for set operations)."""
        r = self.r
        grouped = target == "group_by" or (target not in ("set_op",) and r.random() < 0.3)
        if kinds is not None:
            grouped = r.random() < 0.25
        anti_by_left_join = target == "anti_join" and kinds is None and r.random() < 0.25
        self.wide_scans = grouped and not nested
        scope, from_sql, where = self.from_clause(
            want_inner=target == "inner_join",
            want_left=target == "left_join" or anti_by_left_join,
            max_tables=3 if not nested else 2, derived=0.3 if target == "subquery" else 0.1,
            depth=1 if nested else 0)
        if target == "filter" or r.random() < 0.6:
            where = where + [self.predicate(scope)]
        self.wide_scans = False
        outer = [s for s in scope.sources if s.nullable]
        if anti_by_left_join and outer:
            # The anti join written as an outer join keeping the rows without a match.
            where.append(f"{outer[-1].alias}.{outer[-1].key[0]} IS NULL")
            self.tags.add("anti_join")
        elif target in ("semi_join", "anti_join") or r.random() < 0.15:
            cond = self.semi_anti(scope, anti=(target == "anti_join") or
                                  (target != "semi_join" and r.random() < 0.4))
            if cond:
                where.append(cond)
        if (target in ("subquery", "semi_join", "anti_join") and r.random() < 0.3) or \
                r.random() < 0.04:
            cond = self.subquery_predicate(scope)
            if cond:
                where.append(cond)
        if (target == "subquery" and r.random() < 0.5) or r.random() < 0.08:
            refs = scope.refs((INT, DEC))
            sub = self.scalar_subquery(scope, correlated=r.random() < 0.5)
            same = [x for x in scope.refs((sub.kind,))] if sub else []
            if same:
                where.append(f"{r.choice(same)[0]} {r.choice(['<', '>=', '<>'])} {sub.sql}")
        exprs: list[Expr] = []
        unique = False
        self.hidden_order_keys = []
        if grouped:
            self.tags.add("group_by")
            group_refs = [x for x in scope.refs(text=False)
                          if x[1].kind != BOOL or r.random() < 0.5]
            preferred = [x for x in group_refs if x[1].group] or group_refs
            n_keys = r.randint(1, 2)
            keys: list[Expr] = []
            for _ in range(n_keys):
                if kinds is not None and len(keys) < len(kinds):
                    key_kind = kinds[len(keys)]
                    choice = [x for x in group_refs if x[1].kind == key_kind]
                    if not choice:
                        break
                    ref = r.choice(choice)
                else:
                    ref = r.choice(preferred)
                if any(k.sql == ref[0] for k in keys):
                    continue
                if kinds is None and r.random() < 0.2 and ref[1].kind in (STR, INT, DATE):
                    keys.append(self.group_expression(scope, ref))
                else:
                    keys.append(Expr(ref[0], ref[1].kind, ref[1].nullable))
            grouping_sets = None
            if kinds is None and len(keys) == 2 and r.random() < 0.2 and \
                    all("(" not in k.sql for k in keys):
                grouping_sets = r.choice(["rollup", "cube", "sets", "pairs"])
            if kinds is not None:
                # Set-operation branch: keys first, then aggregates of the remaining kinds.
                outs = list(keys[:len(kinds)])
                for kind in kinds[len(outs):]:
                    outs.append(self.aggregate_of_kind(scope, kind))
                exprs = outs
            else:
                aggs = [self.aggregate(scope, allow_avg=not nested)
                        for _ in range(r.randint(1, 4))]
                exprs = keys + aggs
                if target == "window" or r.random() < 0.1:
                    exprs.append(self.window_item(scope, aggs, [k.sql for k in keys]))
                    grouping_sets = None
            having = f" HAVING {self.having(scope)}" if r.random() < 0.35 else ""
            if kinds is None and grouping_sets is None and \
                    (target == "subquery" or r.random() < 0.05):
                sub = self.having_subquery(scope, keys)
                if sub:
                    having = f"{having} AND {sub}" if having else f" HAVING {sub}"
            # A set-operation branch may group by a key it does not output.
            group_sql = ", ".join(k.sql for k in keys) or r.choice(preferred)[0]
            if grouping_sets is not None:
                a, b = keys[0].sql, keys[1].sql
                group_sql = {"rollup": f"ROLLUP ({a}, {b})", "cube": f"CUBE ({a}, {b})",
                             "sets": f"GROUPING SETS (({a}, {b}), ({a}), ())",
                             "pairs": f"GROUPING SETS (({a}), ({b}))"}[grouping_sets]
                # grouping() tells a rolled-up NULL from a NULL key: rows stay unique.
                exprs.append(Expr(f"grouping({a}, {b})", INT, False))
            select_sql = ", ".join(f"{e.sql} AS c{i}" for i, e in enumerate(exprs))
            sql = (f"SELECT {select_sql} FROM {from_sql}{self.where_sql(where)} "
                   f"GROUP BY {group_sql}{having}")
            unique = kinds is None or len(keys) >= len(kinds)
        else:
            if kinds is not None:
                exprs = [self.set_op_value(scope, k) for k in kinds]
                if len(exprs) > 1 and r.random() < 0.1:
                    exprs[-1] = Expr("NULL", kinds[-1], True)
            else:
                for _ in range(r.randint(1, 4)):
                    exprs.append(self.value(scope, r.choice([INT, INT, DEC, STR, STR, DATE])))
                if scope.sources[0].table.name == "nulls_t" and r.random() < 0.4:
                    exprs.append(self.value(scope, r.choice([DBL, BOOL])))
                if target == "window" or r.random() < 0.15:
                    for _ in range(r.randint(1, 2)):
                        exprs.append(self.window_item(scope))
                if target == "subquery" or r.random() < 0.05:
                    sub = self.scalar_subquery(scope, correlated=r.random() < 0.6)
                    if sub:
                        exprs.append(sub)
                if (target in ("subquery", "semi_join", "anti_join") and r.random() < 0.2) or \
                        r.random() < 0.02:
                    cond = self.semi_anti(scope, anti=r.random() < 0.4)
                    if cond and r.random() < 0.5:
                        exprs.append(Expr(f"CASE WHEN {cond} THEN 'yes' ELSE 'no' END", STR))
                    elif cond:
                        exprs.append(Expr(cond, BOOL))
            distinct = "DISTINCT " if r.random() < 0.1 and kinds is None else ""
            select_sql = ", ".join(f"{e.sql} AS c{i}" for i, e in enumerate(exprs))
            sql = f"SELECT {distinct}{select_sql} FROM {from_sql}{self.where_sql(where)}"
            unique = bool(distinct)
            if not distinct and kinds is None:
                # The query can order by the sources' keys it does not output.
                self.hidden_order_keys = scope.key_refs()
            if target == "window" and not nested and r.random() < 0.3:
                # Top rows per partition: filter on a row_number of a derived table.
                groups = [x[0] for x in scope.refs(text=False) if x[1].group]
                part = f"PARTITION BY {r.choice(groups)} " if groups else ""
                plain = [x[0] for x in scope.refs(ORDERABLE, text=False)]
                rn = f"row_number() OVER ({part}ORDER BY {self.total_order(scope, plain)})"
                self.hidden_order_keys = []
                sql = (f"SELECT {', '.join(f'c{i}' for i in range(len(exprs)))} FROM "
                       f"(SELECT {select_sql}, {rn} AS rn FROM {from_sql}"
                       f"{self.where_sql(where)}) AS w WHERE rn <= {r.randint(1, 4)}")
                self.tags.add("subquery")
        return sql, exprs, unique

    def having_subquery(self, scope: Scope, keys: list[Expr]) -> str | None:
        """A HAVING condition with a scalar subquery, correlated on a group key when an
        edge leaves from one."""
        r = self.r
        key_sqls = {k.sql for k in keys}
        for _ in range(4):
            rel = self.related(scope)
            if rel is not None and rel[0] in key_sqls:
                outer_sql, _, table, inner_col = rel
                inner, preds = self.base_source(table)
                preds = [f"{inner.alias}.{inner_col} = {outer_sql}"] + preds
                self.tags.add("subquery")
                return (f"count(*) {r.choice(['>=', '<', '<>'])} (SELECT count(*) FROM "
                        f"{inner.sql}{self.where_sql(preds)})")
        sub = self.scalar_subquery(scope, correlated=False)
        if sub is None or sub.kind not in (INT, DEC):
            return None
        ref = self.column(scope, (sub.kind,))
        if ref is None:
            return None
        return f"{r.choice(['max', 'min', 'sum'])}({ref[0]}) {r.choice(['>', '<='])} {sub.sql}"

    def group_expression(self, scope: Scope, ref: tuple[str, Column]) -> Expr:
        """A computed GROUP BY key (the select list repeats the same text)."""
        r = self.r
        sql, col = ref
        if col.kind == STR:
            return Expr(f"substr({sql}, 1, {r.randint(1, 3)})", STR, col.nullable)
        if col.kind == DATE:
            return Expr(f"extract({r.choice(['year', 'month'])} FROM {sql})", INT, col.nullable)
        if r.random() < 0.5:
            return Expr(f"({sql} % {r.randint(2, 7)})", INT, col.nullable)
        return Expr(f"CASE WHEN {sql} < {col.literal(r)} THEN 'lo' ELSE 'hi' END", STR, False)

    def set_op_value(self, scope: Scope, kind: str) -> Expr:
        """A value for a set-operation branch. Decimals stay plain columns of scale 2:
        Trino unions decimal(38,2) with decimal(18,3) as decimal(38,3), DuckDB as
        decimal(38,2) (it rounds the other branch)."""
        if kind != DEC:
            return self.value(scope, kind)
        ref = self.column(scope, (DEC,))
        if ref is None:
            return Expr(self.literal_for_kind(DEC)(self.r), DEC, False)
        return Expr(ref[0], DEC, ref[1].nullable)

    def aggregate_of_kind(self, scope: Scope, kind: str) -> Expr:
        r = self.r
        if kind == INT:
            return r.choice([Expr("count(*)", INT, False, aggregate=True),
                             Expr(f"count(DISTINCT {self.value(scope, STR, 1).sql})", INT, False,
                                  aggregate=True)])
        v = self.set_op_value(scope, kind) if kind == DEC else self.value(scope, kind, 1)
        fn = r.choice(["min", "max"] + (["sum"] if kind in (DEC, INT) else []))
        return Expr(f"{fn}({v.sql})", kind, True, aggregate=True)

    def set_op_query(self) -> tuple[str, list[Expr]]:
        r = self.r
        self.tags.add("set_op")
        kinds = [r.choice([INT, INT, STR, STR, DEC, DATE]) for _ in range(r.randint(1, 3))]
        parts, exprs = [], []
        for _ in range(2 if r.random() < 0.8 else 3):
            branch, branch_exprs, _ = self.select_query("set_op", kinds, nested=True)
            exprs = exprs or branch_exprs
            if r.random() < 0.15:
                # A parenthesized branch with its own total ORDER BY and LIMIT.
                ordinals = [str(i + 1) for i in range(len(kinds))]
                branch = (f"({branch} ORDER BY {self.order_items(ordinals)} "
                          f"LIMIT {r.randint(1, 20)})")
                self.tags.add("order_limit")
            parts.append(branch)
        sql = parts[0]
        for p in parts[1:]:
            op = r.choice(["UNION", "UNION ALL", "INTERSECT", "EXCEPT", "UNION ALL",
                           "INTERSECT ALL", "EXCEPT ALL"])
            if op.startswith(("INTERSECT", "EXCEPT")) and len(parts) > 2:
                op = "UNION"
            sql = f"{sql} {op} {p}"
        return sql, exprs

    def build(self) -> GeneratedQuery:
        r = self.r
        target = FEATURE_CLASSES[self.index % len(FEATURE_CLASSES)]
        if target == "set_op" or r.random() < 0.04:
            sql, exprs = self.set_op_query()
            unique = False
            ordinals = [str(i + 1) for i in range(len(exprs))]
            if target == "order_limit" or r.random() < 0.5:
                self.tags.add("order_limit")
                sql += f" ORDER BY {self.order_items(ordinals)}"
                if r.random() < 0.7:
                    sql += f" LIMIT {r.randint(1, 30)}"
            elif r.random() < 0.3:
                sql = f"SELECT count(*) FROM ({sql}) AS s"
        else:
            sql, exprs, unique = self.select_query(target)
            if target == "order_limit" or r.random() < 0.25:
                self.tags.add("order_limit")
                exact = [f"c{i}" if r.random() < 0.5 else str(i + 1)
                         for i, e in enumerate(exprs) if not e.fuzzy]
                fuzzy = [str(i + 1) for i, e in enumerate(exprs) if e.fuzzy]
                r.shuffle(exact)
                if self.hidden_order_keys and r.random() < 0.35:
                    # A few output columns, then the keys: total without the rest.
                    exact = exact[:r.randint(0, 2)] + self.hidden_order_keys
                    fuzzy = []
                sql += f" ORDER BY {self.order_items(exact + fuzzy)}"
                limit_ok = unique or not fuzzy
                if limit_ok and (target == "order_limit" or r.random() < 0.6):
                    roll = r.random()
                    if roll < 0.05:
                        sql += f" OFFSET {r.randint(1, 200)}"
                    else:
                        sql += f" LIMIT {r.randint(0, 40) if roll < 0.1 else r.randint(1, 40)}"
                        if r.random() < 0.4:
                            sql += f" OFFSET {r.randint(1, 20)}"
        if self.ctes:
            sql = f"WITH {', '.join(self.ctes)} {sql}"
        classes = tuple(c for c in FEATURE_CLASSES if c in self.tags)
        return GeneratedQuery(self.index, sql, classes)


def _literal_sort_key(text: str):
    t = text.strip("'")
    if t.startswith("DATE "):
        return (1, 0.0, t)
    try:
        return (0, float(t), "")
    except ValueError:
        return (2, 0.0, t)


def generate(seed: int, count: int) -> list[GeneratedQuery]:
    """Queries 0..count-1 for `seed`."""
    return [QueryGenerator(seed, i).build() for i in range(count)]


def class_counts(queries: list[GeneratedQuery]) -> dict[str, int]:
    return {c: sum(1 for q in queries if c in q.classes) for c in FEATURE_CLASSES}


def main() -> None:
    parser = argparse.ArgumentParser(description="print generated differential queries")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--index", type=int, default=None, help="print only this query")
    parser.add_argument("--count", type=int, default=20)
    args = parser.parse_args()
    indexes = [args.index] if args.index is not None else range(args.count)
    for i in indexes:
        q = QueryGenerator(args.seed, i).build()
        print(f"-- seed {args.seed} query {i}: {', '.join(q.classes)}\n{q.sql};")


if __name__ == "__main__":
    main()
