"""The differential corpus: queries over the TPC-H tables (plus nulls_t) whose Trino and
DuckDB semantics agree, so both engines must return the same rows.

Two sources, both deterministic:
* corpus/*.sql: hand-written queries, each ending with ';' on its own line end, preceded by
  a `-- name: <id>` line.
* generated(): templates filled from fixed parameter pools with random.Random(SEED).

Rules the queries follow so the comparison is meaningful: no integer division (Trino
truncates, DuckDB does not), no avg() of decimals in predicates (Trino rounds it to the
column's scale), no concat()/greatest()/least() over NULLs, and an ORDER BY on the outermost
SELECT is total (ties broken by a key) whenever it is there.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

SEED = 20261204
CORPUS_DIR = Path(__file__).resolve().parent / "corpus"


@dataclass(frozen=True)
class CorpusQuery:
    id: str
    sql: str


SHIPMODES = ["AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"]
SEGMENTS = ["AUTOMOBILE", "BUILDING", "FURNITURE", "HOUSEHOLD", "MACHINERY"]
PRIORITIES = ["1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"]
TYPE_PREFIXES = ["ECONOMY", "LARGE", "MEDIUM", "PROMO", "SMALL", "STANDARD"]
TYPE_SUFFIXES = ["BRASS", "COPPER", "NICKEL", "STEEL", "TIN"]
NATION_PATTERNS = ["A%", "%A", "%AN%", "I%", "%IA", "U%", "%E%", "C%", "_R%", "%N_"]
REGIONS = ["AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"]
CONTAINERS = ["SM BOX", "MED BAG", "LG CASE", "JUMBO PKG", "WRAP DRUM", "SM PACK"]


def _date(rng: random.Random, lo_year: int = 1992, hi_year: int = 1998) -> str:
    return f"{rng.randint(lo_year, hi_year)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


# Each template: a name and a function of the random generator returning the SQL.
def _templates():
    t = {}
    t["filter_count"] = lambda r: (
        f"SELECT count(*) FROM lineitem WHERE l_quantity {r.choice(['<', '<=', '>', '>=', '='])} "
        f"{r.randint(1, 50)} AND l_shipmode = '{r.choice(SHIPMODES)}'")
    t["date_range_sums"] = lambda r: (
        lambda d1, n: f"SELECT count(*), sum(l_quantity), sum(l_extendedprice), "
                      f"min(l_discount), max(l_tax) FROM lineitem WHERE l_shipdate >= date '{d1}' "
                      f"AND l_shipdate < date '{d1}' + interval '{n}' day")(_date(r), r.randint(1, 60))
    t["flag_status_agg"] = lambda r: (
        f"SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity), avg(l_discount), "
        f"min(l_extendedprice), max(l_extendedprice) FROM lineitem WHERE l_shipmode = "
        f"'{r.choice(SHIPMODES)}' AND l_quantity > {r.randint(0, 40)} "
        f"GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus")
    t["priority_month"] = lambda r: (
        lambda d, n: f"SELECT o_orderpriority, count(*), sum(o_totalprice) FROM orders WHERE "
                     f"o_orderdate >= date '{d}' AND o_orderdate < date '{d}' + interval '{n}' month "
                     f"GROUP BY o_orderpriority ORDER BY o_orderpriority")(_date(r), r.randint(1, 12))
    t["segment_nation"] = lambda r: (
        f"SELECT n_name, count(*), sum(c_acctbal), min(c_acctbal), max(c_acctbal) FROM customer "
        f"JOIN nation ON c_nationkey = n_nationkey WHERE c_mktsegment = '{r.choice(SEGMENTS)}' "
        f"GROUP BY n_name ORDER BY n_name")
    t["top_customers"] = lambda r: (
        f"SELECT c_custkey, c_name, c_acctbal FROM customer WHERE c_acctbal > "
        f"{r.randint(-999, 9000)}.{r.randint(0, 99):02d} ORDER BY c_acctbal DESC, c_custkey "
        f"LIMIT {r.randint(1, 50)}")
    t["orders_of_customer"] = lambda r: (
        f"SELECT o_orderkey, o_totalprice, o_orderdate, o_orderstatus FROM orders "
        f"WHERE o_custkey = {r.randint(1, 15000)} ORDER BY o_orderkey")
    t["region_revenue"] = lambda r: (
        lambda d: f"SELECT r_name, sum(l_extendedprice * (1 - l_discount)) AS revenue, count(*) "
                  f"FROM lineitem JOIN supplier ON l_suppkey = s_suppkey JOIN nation ON "
                  f"s_nationkey = n_nationkey JOIN region ON n_regionkey = r_regionkey WHERE "
                  f"l_shipdate >= date '{d}' AND l_shipdate < date '{d}' + interval '1' year "
                  f"GROUP BY r_name ORDER BY r_name")(_date(r, 1992, 1997))
    t["brand_stats"] = lambda r: (
        f"SELECT p_brand, count(*), avg(p_retailprice), min(p_size), max(p_size) FROM part "
        f"WHERE p_type LIKE '{r.choice(TYPE_PREFIXES)}%' AND p_size <= {r.randint(10, 50)} "
        f"GROUP BY p_brand ORDER BY p_brand")
    t["year_month_having"] = lambda r: (
        f"SELECT year(o_orderdate) AS y, month(o_orderdate) AS m, count(*), sum(o_totalprice) "
        f"FROM orders WHERE o_orderstatus = '{r.choice(['F', 'O', 'P'])}' GROUP BY "
        f"year(o_orderdate), month(o_orderdate) HAVING count(*) > {r.randint(0, 2500)} "
        f"ORDER BY y, m")
    t["semi_join_count"] = lambda r: (
        f"SELECT count(*), sum(o_totalprice) FROM orders WHERE o_orderkey IN (SELECT l_orderkey "
        f"FROM lineitem WHERE l_quantity > {r.randint(30, 50)} AND l_shipmode = "
        f"'{r.choice(SHIPMODES)}')")
    t["anti_join_count"] = lambda r: (
        f"SELECT count(*) FROM customer WHERE c_custkey NOT IN (SELECT o_custkey FROM orders "
        f"WHERE o_orderdate < date '{_date(r)}')")
    t["exists_correlated"] = lambda r: (
        f"SELECT count(*) FROM part WHERE EXISTS (SELECT 1 FROM partsupp WHERE ps_partkey = "
        f"p_partkey AND ps_availqty < {r.randint(10, 2000)})")
    t["not_exists_correlated"] = lambda r: (
        f"SELECT count(*) FROM supplier WHERE NOT EXISTS (SELECT 1 FROM lineitem WHERE "
        f"l_suppkey = s_suppkey AND l_shipdate = date '{_date(r)}')")
    t["scalar_subquery_max"] = lambda r: (
        lambda m: f"SELECT count(*) FROM lineitem WHERE l_shipmode = '{m}' AND l_extendedprice > "
                  f"(SELECT max(l_extendedprice) FROM lineitem WHERE l_shipmode = '{m}') * "
                  f"0.{r.randint(5, 95):02d}")(r.choice(SHIPMODES))
    t["left_join_counts"] = lambda r: (
        lambda k: f"SELECT c_custkey, count(o_orderkey), sum(o_totalprice) FROM customer LEFT JOIN "
                  f"orders ON c_custkey = o_custkey AND o_orderstatus = '{r.choice(['F', 'O', 'P'])}' "
                  f"WHERE c_custkey BETWEEN {k} AND {k + r.randint(5, 40)} GROUP BY c_custkey "
                  f"ORDER BY c_custkey")(r.randint(1, 14900))
    t["distinct_pairs"] = lambda r: (
        f"SELECT DISTINCT l_shipmode, l_shipinstruct FROM lineitem WHERE l_quantity = "
        f"{r.randint(1, 50)} AND l_discount = 0.0{r.randint(0, 9)} ORDER BY 1, 2")
    t["intersect_nations"] = lambda r: (
        f"SELECT c_nationkey FROM customer WHERE c_acctbal > {r.randint(5000, 9990)} INTERSECT "
        f"SELECT s_nationkey FROM supplier WHERE s_acctbal < {r.randint(-900, 3000)}")
    t["union_all_count"] = lambda r: (
        f"SELECT count(*), count(DISTINCT k) FROM (SELECT o_custkey AS k FROM orders WHERE "
        f"o_totalprice > {r.randint(300000, 500000)} UNION ALL SELECT c_custkey FROM customer "
        f"WHERE c_acctbal < {r.randint(-999, -500)}) AS u")
    t["except_nations"] = lambda r: (
        f"SELECT n_nationkey, n_name FROM nation EXCEPT SELECT s_nationkey, n_name FROM supplier "
        f"JOIN nation ON s_nationkey = n_nationkey WHERE s_acctbal > {r.randint(9000, 9995)}")
    t["phone_prefix_case"] = lambda r: (
        f"SELECT substr(c_phone, 1, 2) AS cc, count(*), sum(CASE WHEN c_acctbal < 0 THEN 1 ELSE "
        f"0 END), max(length(c_name)) FROM customer WHERE c_mktsegment = '{r.choice(SEGMENTS)}' "
        f"GROUP BY substr(c_phone, 1, 2) ORDER BY cc")
    t["nation_strings"] = lambda r: (
        f"SELECT upper(n_name), length(n_name), lower(r_name), substr(n_name, 2, 3), "
        f"n_name || '/' || r_name FROM nation JOIN region ON n_regionkey = r_regionkey "
        f"WHERE n_name LIKE '{r.choice(NATION_PATTERNS)}' ORDER BY 1")
    t["top_n_lines"] = lambda r: (
        f"SELECT l_orderkey, l_linenumber, l_extendedprice, l_shipmode FROM lineitem WHERE "
        f"l_shipdate = date '{_date(r)}' ORDER BY l_extendedprice DESC, l_orderkey, l_linenumber "
        f"LIMIT {r.randint(1, 30)}")
    t["cte_big_customers"] = lambda r: (
        f"WITH big AS (SELECT o_custkey, sum(o_totalprice) AS tp, count(*) AS n FROM orders "
        f"GROUP BY o_custkey HAVING sum(o_totalprice) > {r.randint(500000, 3000000)}) "
        f"SELECT count(*), min(tp), max(tp), sum(n) FROM big")
    t["multi_key_join"] = lambda r: (
        f"SELECT count(*), sum(ps_supplycost * l_quantity), min(ps_availqty) FROM lineitem JOIN "
        f"partsupp ON l_partkey = ps_partkey AND l_suppkey = ps_suppkey WHERE l_orderkey < "
        f"{r.randint(1000, 60000)}")
    t["supplier_having_top"] = lambda r: (
        f"SELECT l_suppkey, count(*) AS c, sum(l_quantity) FROM lineitem WHERE l_shipdate < "
        f"date '{_date(r, 1992, 1993)}' GROUP BY l_suppkey HAVING count(*) > {r.randint(5, 60)} "
        f"ORDER BY c DESC, l_suppkey LIMIT 10")
    t["in_list_between"] = lambda r: (
        lambda sizes, a: f"SELECT count(*), sum(p_retailprice) FROM part WHERE p_size IN ({sizes}) "
                         f"AND p_retailprice BETWEEN {a} AND {a + r.randint(10, 500)} AND "
                         f"p_container <> '{r.choice(CONTAINERS)}'")(
        ", ".join(str(s) for s in sorted(r.sample(range(1, 51), r.randint(1, 8)))),
        r.randint(900, 1900))
    t["extract_year_discount"] = lambda r: (
        f"SELECT extract(year FROM l_shipdate) AS y, count(*), sum(l_extendedprice * l_discount) "
        f"FROM lineitem WHERE l_discount = 0.0{r.randint(0, 9)} AND l_returnflag = "
        f"'{r.choice(['A', 'N', 'R'])}' GROUP BY extract(year FROM l_shipdate) ORDER BY y")
    t["variance_by_mode"] = lambda r: (
        f"SELECT l_shipmode, stddev(l_quantity), var_pop(l_tax), stddev_pop(l_discount) "
        f"FROM lineitem WHERE l_partkey < {r.randint(100, 20000)} GROUP BY l_shipmode "
        f"ORDER BY l_shipmode")
    t["region_nested_in"] = lambda r: (
        f"SELECT s_suppkey, s_name, s_acctbal FROM supplier WHERE s_nationkey IN (SELECT "
        f"n_nationkey FROM nation WHERE n_regionkey IN (SELECT r_regionkey FROM region WHERE "
        f"r_name = '{r.choice(REGIONS)}')) AND s_acctbal > {r.randint(8000, 9900)} "
        f"ORDER BY s_suppkey")
    t["orders_case_buckets"] = lambda r: (
        f"SELECT CASE WHEN o_totalprice < {r.randint(20000, 100000)} THEN 'low' WHEN o_totalprice "
        f"< {r.randint(150000, 300000)} THEN 'mid' ELSE 'high' END AS bucket, count(*), "
        f"min(o_orderdate), max(o_orderdate) FROM orders GROUP BY 1 ORDER BY bucket")
    # NULL handling over nulls_t.
    t["nulls_group"] = lambda r: (
        f"SELECT grp, count(*), count(k), sum(amount), min(d), max(f), count(flag) FROM nulls_t "
        f"WHERE id >= {r.randint(0, 150)} GROUP BY grp ORDER BY grp NULLS FIRST")
    t["nulls_not_in"] = lambda r: (
        f"SELECT count(*) FROM nulls_t WHERE k NOT IN (SELECT k FROM nulls_t WHERE id < "
        f"{r.randint(1, 60)})")
    t["nulls_not_in_filtered"] = lambda r: (
        f"SELECT count(*) FROM nulls_t WHERE k NOT IN (SELECT k FROM nulls_t WHERE id < "
        f"{r.randint(1, 20)} AND k IS NOT NULL)")
    t["nulls_coalesce"] = lambda r: (
        lambda lo: f"SELECT id, coalesce(k, -1), nullif(grp, 'b'), coalesce(amount, 0), "
                   f"CASE WHEN flag THEN 'y' WHEN NOT flag THEN 'n' ELSE '?' END FROM nulls_t "
                   f"WHERE id BETWEEN {lo} AND {lo + r.randint(5, 30)} ORDER BY id")(r.randint(0, 260))
    t["nulls_self_join"] = lambda r: (
        f"SELECT count(*), count(b.grp) FROM nulls_t AS a JOIN nulls_t AS b ON a.k = b.k "
        f"WHERE a.id < {r.randint(10, 300)}")
    t["nulls_left_join_nation"] = lambda r: (
        lambda lo: f"SELECT a.id, a.k, n.n_name FROM nulls_t AS a LEFT JOIN nation AS n ON "
                   f"a.k = n.n_nationkey WHERE a.id BETWEEN {lo} AND {lo + 20} ORDER BY a.id")(
        r.randint(0, 270))
    t["nulls_order"] = lambda r: (
        f"SELECT id, f FROM nulls_t WHERE id < {r.randint(20, 80)} ORDER BY f "
        f"{r.choice(['ASC', 'DESC'])} NULLS {r.choice(['FIRST', 'LAST'])}, id")
    t["nulls_three_valued"] = lambda r: (
        lambda x: f"SELECT count(*), count_if(k > {x}), count_if(NOT (k > {x})), "
                  f"count_if(k > {x} OR k IS NULL) FROM nulls_t WHERE "
                  f"{r.choice(['flag', 'NOT flag', 'flag IS NULL', 'flag OR k < 5'])}")(r.randint(0, 24))
    t["nulls_aggregates_empty"] = lambda r: (
        f"SELECT sum(k), avg(k), count(DISTINCT k), min(grp), max(d) FROM nulls_t WHERE "
        f"{r.choice(['grp IS NULL', 'k IS NULL', 'amount IS NULL', 'id < 0', 'd IS NULL'])}")
    t["nulls_full_join"] = lambda r: (
        f"SELECT count(*), count(a.id), count(b.id) FROM (SELECT * FROM nulls_t WHERE id < "
        f"{r.randint(10, 100)}) AS a FULL JOIN (SELECT * FROM nulls_t WHERE id >= "
        f"{r.randint(100, 250)}) AS b ON a.k = b.k AND a.grp = b.grp")
    t["nulls_distinct_union"] = lambda r: (
        f"SELECT grp, k FROM nulls_t WHERE id < {r.randint(10, 40)} UNION SELECT grp, k FROM "
        f"nulls_t WHERE id > {r.randint(250, 290)}")
    return t


def generated(per_template: int = 8) -> list[CorpusQuery]:
    """per_template queries from every template, the same ones on every run."""
    rng = random.Random(SEED)
    out = []
    for name, make in _templates().items():
        seen = set()
        attempts = 0
        while len([q for q in out if q.id.startswith(name + "_")]) < per_template and attempts < 50:
            attempts += 1
            sql = make(rng)
            if sql in seen:
                continue
            seen.add(sql)
            out.append(CorpusQuery(f"{name}_{len(seen):02d}", sql))
    return out


def hand_written() -> list[CorpusQuery]:
    """The queries of corpus/*.sql (each after a `-- name: <id>` line, ending with ';')."""
    out = []
    for path in sorted(CORPUS_DIR.glob("*.sql")):
        for block in re.split(r"^-- name: ", path.read_text(), flags=re.M)[1:]:
            name, _, body = block.partition("\n")
            sql = body.strip().rstrip(";").strip()
            out.append(CorpusQuery(f"{path.stem}/{name.strip()}", sql))
    return out


def all_queries() -> list[CorpusQuery]:
    return hand_written() + generated()
