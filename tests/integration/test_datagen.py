"""sqe-datagen tpch against DuckDB's dbgen at the same scale factor: DuckDB reads our Parquet
files with dbgen's column types, the row counts per table are equal (lineitem's lines per
order are random: within 1 %), key and flag columns have the same domains (min, max,
distinct count), and each of the 22 TPC-H queries (bench/tpch/queries) returns a row count
within 5 % of the same query on dbgen's data (the grammar of the comments, the colors of
part names, the part types and containers decide Q9, Q13, Q16...). Also: the same seed gives
the same rows whatever the thread count, and the Iceberg path loads the tables into an
embedded warehouse that SQE queries.

The binary is build/release/src/main/sqe-datagen (override with SQE_DATAGEN_BIN).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import duckdb
import pytest

from conftest import REPO_ROOT, clean_env
from differential import tpch_data

DATAGEN = Path(os.environ.get("SQE_DATAGEN_BIN",
                              REPO_ROOT / "build" / "release" / "src" / "main" / "sqe-datagen"))
SHELL = Path(os.environ.get("SQE_SHELL_BIN",
                            REPO_ROOT / "build" / "release" / "src" / "main" / "sqe-shell"))
QUERIES = sorted((REPO_ROOT / "bench" / "tpch" / "queries").glob("q*.sql"))
TABLES = tpch_data.TPCH_TABLES

# Per table: columns whose min, max and distinct count must equal dbgen's exactly (keys
# defined by the row number, flags and fixed lists), and randomly drawn foreign keys whose
# domains must agree within a small tolerance.
EXACT_COLUMNS = {
    "region": ["r_regionkey", "r_name"],
    "nation": ["n_nationkey", "n_name", "n_regionkey"],
    "part": ["p_partkey", "p_mfgr", "p_brand", "p_type", "p_size", "p_container"],
    "supplier": ["s_suppkey", "s_name", "s_nationkey"],
    "partsupp": ["ps_partkey", "ps_suppkey"],
    "customer": ["c_custkey", "c_name", "c_nationkey", "c_mktsegment"],
    "orders": ["o_orderkey", "o_orderstatus", "o_orderpriority", "o_shippriority"],
    "lineitem": ["l_linenumber", "l_quantity", "l_discount", "l_tax", "l_returnflag",
                 "l_linestatus", "l_shipinstruct", "l_shipmode"],
}
RANDOM_KEYS = {
    "orders": ["o_custkey", "o_clerk"],
    "lineitem": ["l_orderkey", "l_partkey", "l_suppkey"],
}


def generate(args: list[str], timeout: float = 600) -> subprocess.CompletedProcess:
    if not DATAGEN.is_file():
        pytest.fail(f"sqe-datagen not built at {DATAGEN}; run scripts/test.sh")
    proc = subprocess.run([str(DATAGEN), "tpch", *args], capture_output=True, text=True,
                          timeout=timeout, env=clean_env())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def views(directory: Path) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    for table in TABLES:
        con.execute(f"CREATE VIEW {table} AS SELECT * FROM "
                    f"read_parquet('{directory / table}/*.parquet')")
    return con


# Compared at SF 0.01 and 0.1 (the CI scales: about a minute in all); SQE_DATAGEN_SFS="1"
# or "0.01,0.1,1" chooses others (dbgen's data is cached under build/differential by
# tests/integration/differential/tpch_data.py).
SCALE_FACTORS = [float(v) for v in os.environ.get("SQE_DATAGEN_SFS", "0.01,0.1").split(",")]


@pytest.fixture(scope="module", params=SCALE_FACTORS)
def both(request, tmp_path_factory):
    """(sf, our dataset, dbgen's dataset) as DuckDB connections with one view per table."""
    sf = request.param
    ours = tmp_path_factory.mktemp(f"datagen-sf{sf:g}")
    generate(["--sf", str(sf), "--parquet-dir", str(ours), "--threads", "2"])
    theirs = duckdb.connect()
    directory = tpch_data.ensure_tpch_parquet(sf)
    for table in TABLES:
        theirs.execute(f"CREATE VIEW {table} AS SELECT * FROM "
                       f"read_parquet('{directory / table}.parquet')")
    return sf, ours, views(ours), theirs


@pytest.mark.timeout(600)
def test_duckdb_reads_our_files_with_dbgens_column_types(both):
    _, ours_dir, ours, theirs = both
    for table in TABLES:
        assert list((ours_dir / table).glob("*.parquet")), table
        mine = [(r[0], r[1]) for r in ours.execute(f"DESCRIBE {table}").fetchall()]
        want = [(r[0], r[1]) for r in theirs.execute(f"DESCRIBE {table}").fetchall()]
        assert mine == want, table


@pytest.mark.timeout(600)
def test_row_counts_per_table_equal_dbgens(both):
    _, _, ours, theirs = both
    for table in TABLES:
        mine = ours.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        want = theirs.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        if table == "lineitem":
            assert abs(mine - want) <= 0.01 * want, (table, mine, want)
        else:
            assert mine == want, (table, mine, want)


def domain(con: duckdb.DuckDBPyConnection, table: str, column: str):
    return con.execute(f"SELECT min({column}), max({column}), count(DISTINCT {column}) "
                       f"FROM {table}").fetchone()


@pytest.mark.timeout(600)
def test_key_and_flag_columns_have_dbgens_domains(both):
    _, _, ours, theirs = both
    for table, columns in EXACT_COLUMNS.items():
        for column in columns:
            assert domain(ours, table, column) == domain(theirs, table, column), column
    for table, columns in RANDOM_KEYS.items():
        for column in columns:
            lo, hi, n = domain(ours, table, column)
            want_lo, want_hi, want_n = domain(theirs, table, column)
            if isinstance(lo, str):
                assert lo[:8] == want_lo[:8] and hi[:8] == want_hi[:8], column
            else:
                assert abs(lo - want_lo) <= 0.01 * want_hi, (column, lo, want_lo)
                assert abs(hi - want_hi) <= 0.01 * want_hi, (column, hi, want_hi)
            assert abs(n - want_n) <= 0.03 * want_n, (column, n, want_n)
    # Every third customer places no orders; orders span 1992-01-01 .. 1998-08-02.
    for con in (ours, theirs):
        assert con.execute("SELECT count(*) FROM orders WHERE o_custkey % 3 = 0").fetchone()[0] == 0
        assert con.execute("SELECT min(o_orderdate)::VARCHAR, max(o_orderdate)::VARCHAR "
                           "FROM orders").fetchone() == ("1992-01-01", "1998-08-02")


def query_rows(con: duckdb.DuckDBPyConnection, sql: str) -> int:
    return len(con.execute(sql).fetchall())


# Queries whose row count follows a small random population rather than the domains, so
# two correct generators with different random draws disagree by more than 5 % whatever
# their grammar: no value list or distribution of ours differs from dbgen's (checked
# below, down to what these queries depend on), but dbgen's counts are one draw and ours
# another. Measured (2026-12-05; dbgen = DuckDB's dbgen, ours = default seed and seeds 1-8):
# * Q11 keeps the parts above 0.0001 of GERMANY's total stock value. At SF 1 a 1 % change
#   in the number of German suppliers (binomial, 400 +- 20) moves the count by about 7 %;
#   dbgen has 396 German suppliers and 1048 rows, our default seed 430 and 637. At SF 0.1
#   the count follows the German suppliers linearly (about 48 rows each): dbgen 50 -> 2541,
#   ours 32 -> 1917, seeds 1-8: 34..58 -> 1967..2819.
# * Q18 counts orders of more than 300 units: 63.6 expected at SF 1 (7 lines of 1..50),
#   dbgen 57, ours 66; at SF 0.1 6.4 expected, dbgen 5, ours 11, seeds 1-8: 4..8.
# * Q20 counts CANADA's suppliers of a 'forest%' part shipped in 1994: at SF 1 dbgen 186 of
#   412 Canadian suppliers, ours 171 of 386 (the same 45 %); at SF 0.1 dbgen draws only 190
#   forest parts (217 expected) and 9 of its 37 Canadian suppliers qualify, ours 19 of 39,
#   seeds 1-8: 13..21.
# * Q02 and Q21 likewise follow one region's or nation's suppliers (SF 0.1: dbgen 44 and
#   47, seeds 1-8: 35..60 and 30..53).
# * Q13 counts the distinct numbers of orders per customer, set by the few customers in the
#   tails (SF 0.1: dbgen 37, ours 40, seeds 1-8: 37..39; SF 1: 42 and 42).
# Matching dbgen's draws would mean reproducing dbgen's random number streams, not the
# specification. These queries must agree within a factor of three; what they depend on
# is compared directly by test_what_the_sampling_sensitive_queries_depend_on.
SAMPLING_SENSITIVE = {"q02", "q11", "q13", "q18", "q20", "q21"}


@pytest.mark.timeout(900)
def test_each_tpch_query_returns_about_as_many_rows_as_on_dbgens_data(both):
    _, _, ours, theirs = both
    assert len(QUERIES) == 22
    off = []
    for path in QUERIES:
        sql = path.read_text()
        mine, want = query_rows(ours, sql), query_rows(theirs, sql)
        if path.stem in SAMPLING_SENSITIVE:
            if not (want / 3 <= mine <= want * 3):
                off.append((path.stem, mine, want))
        elif abs(mine - want) > 0.05 * want:
            off.append((path.stem, mine, want))
    assert not off, off


# (table, predicate) pairs the queries filter on: the comment grammar (Q13), part name
# colors (Q9, Q20), part types (Q2, Q8, Q14, Q16), containers (Q17, Q19), market segments
# (Q3) and ship modes (Q12).
SELECTIVITIES = [
    ("orders", "o_comment LIKE '%special%requests%'"),
    ("orders", "o_comment LIKE '%pending%deposits%'"),
    ("lineitem", "l_comment LIKE '%carefully%'"),
    ("partsupp", "ps_comment LIKE '%final%'"),
    ("customer", "c_comment LIKE '%regular%'"),
    ("part", "p_name LIKE '%green%'"),
    ("part", "p_name LIKE 'forest%'"),
    ("part", "p_type LIKE '%BRASS'"),
    ("part", "p_type LIKE 'PROMO%'"),
    ("part", "p_type = 'ECONOMY ANODIZED STEEL'"),
    ("part", "p_container IN ('SM CASE', 'SM BOX', 'SM PACK', 'SM PKG')"),
    ("customer", "c_mktsegment = 'BUILDING'"),
    ("lineitem", "l_shipmode IN ('MAIL', 'SHIP')"),
    ("lineitem", "l_returnflag = 'R'"),
    ("orders", "o_orderstatus = 'P'"),
]


@pytest.mark.timeout(600)
def test_text_and_value_lists_match_dbgens_selectivities(both):
    _, _, ours, theirs = both
    off = []
    for table, predicate in SELECTIVITIES:
        sql = f"SELECT avg(CASE WHEN {predicate} THEN 1.0 ELSE 0.0 END), count(*) FROM {table}"
        mine, n = ours.execute(sql).fetchone()
        want, _ = theirs.execute(sql).fetchone()
        # Four standard deviations of a binomial proportion, plus 2 % of it.
        allowed = 4 * (want * (1 - want) / n) ** 0.5 + 0.02 * want
        if abs(mine - want) > allowed:
            off.append((predicate, round(mine, 5), round(want, 5)))
    assert not off, off
    # Orders per active customer: customers with key % 3 == 1 place twice as many orders as
    # those with key % 3 == 2 in both (what spreads Q13's groups).
    spread = ("SELECT avg(n), stddev(n) FROM (SELECT o_custkey, count(*) AS n FROM orders "
              "GROUP BY o_custkey)")
    (mean, sd), (want_mean, want_sd) = ours.execute(spread).fetchone(), \
        theirs.execute(spread).fetchone()
    assert abs(mean - want_mean) <= 0.02 * want_mean
    assert abs(sd - want_sd) <= 0.1 * want_sd, (sd, want_sd)


def orders_above(threshold: int, orders: int) -> float:
    """Expected number of orders whose lines' quantities sum above `threshold`: 1..7 lines
    (uniform), each quantity uniform in 1..50 (clause 4.2.3)."""
    expected = 0.0
    sums = {0: 1.0}
    for _ in range(7):
        nxt: dict[int, float] = {}
        for total, p in sums.items():
            for q in range(1, 51):
                nxt[total + q] = nxt.get(total + q, 0.0) + p / 50
        sums = nxt
        expected += sum(p for total, p in sums.items() if total > threshold) * orders / 7
    return expected


@pytest.mark.timeout(600)
def test_what_the_sampling_sensitive_queries_depend_on(both):
    """The populations Q11, Q18 and Q20 follow have the same distributions in both data
    sets; their counts differ by the draw only (see SAMPLING_SENSITIVE)."""
    sf, _, ours, theirs = both
    orders = ours.execute("SELECT count(*) FROM orders").fetchone()[0]
    suppliers = ours.execute("SELECT count(*) FROM supplier").fetchone()[0]
    for con in (ours, theirs):
        # Q18: orders of many units. The tail above 250 units (about 660 orders at SF 0.1)
        # is within four standard deviations (Poisson) of the specification's expectation.
        expected = orders_above(250, orders)
        big = con.execute("SELECT count(*) FROM (SELECT l_orderkey FROM lineitem GROUP BY "
                          "l_orderkey HAVING sum(l_quantity) > 250)").fetchone()[0]
        assert abs(big - expected) <= 4 * expected ** 0.5 + 1, (big, expected)
        # Q11 / Q20: each supplier supplies exactly 4 x parts / suppliers parts; each nation
        # holds about a 25th of the suppliers (binomial, four standard deviations).
        per_supplier = con.execute("SELECT min(n), max(n) FROM (SELECT ps_suppkey, count(*) "
                                   "AS n FROM partsupp GROUP BY ps_suppkey)").fetchone()
        assert per_supplier == (80, 80), per_supplier
        share = suppliers / 25
        spread = 4 * (suppliers * (1 / 25) * (24 / 25)) ** 0.5
        for nation, n in con.execute("SELECT s_nationkey, count(*) FROM supplier "
                                     "GROUP BY 1").fetchall():
            assert abs(n - share) <= spread, (nation, n, share)
    # Q11: the stock value of a partsupp row (supply cost x available quantity).
    value = "SELECT avg(ps_supplycost * ps_availqty), stddev(ps_supplycost * ps_availqty) " \
            "FROM partsupp"
    (mean, sd), (want_mean, want_sd) = ours.execute(value).fetchone(), \
        theirs.execute(value).fetchone()
    assert abs(mean - want_mean) <= 0.02 * want_mean and abs(sd - want_sd) <= 0.02 * want_sd
    # Q20: the share of partsupp pairs with a line shipped in 1994 (how lineitem's part and
    # supplier follow partsupp), and the sum of their quantities.
    shipped = ("SELECT count(*) / (SELECT count(*) FROM partsupp), avg(q) FROM (SELECT "
               "l_partkey, l_suppkey, sum(l_quantity) AS q FROM lineitem WHERE l_shipdate >= "
               "DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01' GROUP BY 1, 2) s "
               "JOIN partsupp ON ps_partkey = l_partkey AND ps_suppkey = l_suppkey")
    (frac, qty), (want_frac, want_qty) = ours.execute(shipped).fetchone(), \
        theirs.execute(shipped).fetchone()
    pairs = ours.execute("SELECT count(*) FROM partsupp").fetchone()[0]
    assert abs(frac - want_frac) <= 4 * (want_frac * (1 - want_frac) / pairs) ** 0.5, \
        (frac, want_frac)
    assert abs(qty - want_qty) <= 0.05 * want_qty, (qty, want_qty)


@pytest.mark.timeout(600)
def test_same_seed_gives_same_rows_whatever_the_thread_count(tmp_path):
    one, two, other = tmp_path / "one", tmp_path / "two", tmp_path / "other"
    tables = "nation,supplier,orders,lineitem"
    generate(["--sf", "0.01", "--parquet-dir", str(one), "--threads", "1", "--tables", tables])
    generate(["--sf", "0.01", "--parquet-dir", str(two), "--threads", "2", "--tables", tables])
    generate(["--sf", "0.01", "--parquet-dir", str(other), "--threads", "2", "--seed", "7",
              "--tables", "orders"])
    con = duckdb.connect()
    for table in tables.split(","):
        a = f"read_parquet('{one / table}/*.parquet')"
        b = f"read_parquet('{two / table}/*.parquet')"
        assert con.execute(f"SELECT count(*) FROM (SELECT * FROM {a} EXCEPT ALL "
                           f"SELECT * FROM {b})").fetchone()[0] == 0, table
        assert con.execute(f"SELECT count(*) FROM {a}").fetchone() == \
            con.execute(f"SELECT count(*) FROM {b}").fetchone(), table
    a = f"read_parquet('{one / 'orders'}/*.parquet')"
    c = f"read_parquet('{other / 'orders'}/*.parquet')"
    assert con.execute(f"SELECT count(*) FROM (SELECT * FROM {a} INTERSECT "
                       f"SELECT * FROM {c})").fetchone()[0] == 0
    # A second run into the same directory refuses, unless --replace.
    proc = subprocess.run([str(DATAGEN), "tpch", "--sf", "0.01", "--parquet-dir", str(one),
                           "--tables", "nation"], capture_output=True, text=True,
                          env=clean_env())
    assert proc.returncode == 1 and "--replace" in proc.stderr
    generate(["--sf", "0.01", "--parquet-dir", str(one), "--tables", "nation", "--replace"])


@pytest.mark.timeout(600)
def test_iceberg_tables_in_an_embedded_warehouse(tmp_path):
    warehouse = tmp_path / "warehouse"
    proc = generate(["--sf", "0.01", "--warehouse", str(warehouse), "--threads", "2",
                     "--partition", "orders=month(o_orderdate)"])
    assert "lineitem" in proc.stdout and "total" in proc.stdout
    # Partitioned orders: one directory per month.
    months = [p.name for p in (warehouse / "tpch" / "orders" / "data").iterdir() if p.is_dir()]
    assert len(months) == 80 and "o_orderdate_month=1992-01" in months, months[:5]
    # The same table again needs --replace.
    again = subprocess.run([str(DATAGEN), "tpch", "--sf", "0.01", "--warehouse", str(warehouse),
                            "--tables", "region"], capture_output=True, text=True,
                           env=clean_env())
    assert again.returncode == 1 and "already exists" in again.stderr
    if not SHELL.is_file():
        pytest.skip(f"sqe-shell not built at {SHELL}")
    counts = subprocess.run(
        [str(SHELL), "--warehouse", str(warehouse), "--format", "csv", "-c",
         "SELECT (SELECT count(*) FROM tpch.region), (SELECT count(*) FROM tpch.nation), "
         "(SELECT count(*) FROM tpch.customer), (SELECT count(*) FROM tpch.orders), "
         "(SELECT count(*) FROM tpch.partsupp), "
         "(SELECT count(*) FROM tpch.orders WHERE o_orderdate < DATE '1993-01-01')"],
        capture_output=True, text=True, timeout=300, env=clean_env())
    assert counts.returncode == 0, counts.stdout + counts.stderr
    row = counts.stdout.strip().splitlines()[-1].split(",")
    assert [int(v) for v in row[:5]] == [5, 25, 1500, 15000, 8000]
    assert 2000 < int(row[5]) < 2600  # about a seventh of the orders fall in 1992
    # SQE runs the 22 queries on the tables and returns as many rows as DuckDB over the
    # tables' own data files.
    duck = duckdb.connect()
    for table in TABLES:
        duck.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet("
                     f"'{warehouse / 'tpch' / table / 'data'}/**/*.parquet')")
    differ = []
    for path in QUERIES:
        run = subprocess.run([str(SHELL), "--warehouse", str(warehouse), "--format", "csv"],
                             input="USE tpch;\n" + path.read_text(), capture_output=True,
                             text=True, timeout=300, env=clean_env())
        assert run.returncode == 0, (path.stem, run.stderr)
        sqe_rows = len(run.stdout.splitlines()) - 1  # minus the header; NULL is an empty line
        if sqe_rows != query_rows(duck, path.read_text()):
            differ.append((path.stem, sqe_rows))
    assert not differ, differ
