-- Hand-written differential queries over the TPC-H tables and nulls_t. Each query follows a
-- "-- name: <id>" line and ends with ';'. See differential/corpus.py for the rules.

-- name: orders_per_status_and_priority
SELECT o_orderstatus, o_orderpriority, count(*), sum(o_totalprice), min(o_orderdate), max(o_orderdate)
FROM orders
GROUP BY o_orderstatus, o_orderpriority
ORDER BY o_orderstatus, o_orderpriority;

-- name: customers_without_orders_by_segment
SELECT c_mktsegment, count(*)
FROM customer
WHERE NOT EXISTS (SELECT 1 FROM orders WHERE o_custkey = c_custkey)
GROUP BY c_mktsegment
ORDER BY c_mktsegment;

-- name: part_supplier_min_cost
SELECT p_partkey, p_name, min(ps_supplycost)
FROM part JOIN partsupp ON p_partkey = ps_partkey
WHERE p_partkey <= 50
GROUP BY p_partkey, p_name
ORDER BY p_partkey;

-- name: lineitem_late_by_mode
SELECT l_shipmode, count_if(l_receiptdate > l_commitdate), count(*)
FROM lineitem
GROUP BY l_shipmode
ORDER BY l_shipmode;

-- name: supplier_nation_region_counts
SELECT r_name, n_name, count(s_suppkey)
FROM region JOIN nation ON r_regionkey = n_regionkey LEFT JOIN supplier ON s_nationkey = n_nationkey
GROUP BY r_name, n_name
ORDER BY r_name, n_name;

-- name: distinct_customers_per_year
SELECT year(o_orderdate) AS y, count(DISTINCT o_custkey)
FROM orders
GROUP BY year(o_orderdate)
ORDER BY y;

-- name: large_orders_cte_join
WITH large AS (
  SELECT l_orderkey, sum(l_quantity) AS q FROM lineitem GROUP BY l_orderkey HAVING sum(l_quantity) > 250
)
SELECT o_orderkey, o_custkey, q, o_totalprice
FROM orders JOIN large ON o_orderkey = l_orderkey
ORDER BY o_orderkey;

-- name: nested_in_subqueries
SELECT count(*)
FROM lineitem
WHERE l_partkey IN (SELECT p_partkey FROM part WHERE p_container = 'SM BOX')
  AND l_suppkey IN (SELECT s_suppkey FROM supplier WHERE s_nationkey IN (SELECT n_nationkey FROM nation WHERE n_regionkey = 1));

-- name: correlated_scalar_max_per_customer
SELECT c_custkey, (SELECT max(o_totalprice) FROM orders WHERE o_custkey = c_custkey)
FROM customer
WHERE c_custkey <= 40
ORDER BY c_custkey;

-- name: string_functions_on_names
SELECT c_custkey, lower(c_name), length(c_address), substr(c_phone, 4, 3), trim(c_mktsegment), starts_with(c_name, 'Customer#00000')
FROM customer
WHERE c_custkey BETWEEN 100 AND 130
ORDER BY c_custkey;

-- name: like_patterns_on_comments
SELECT count_if(o_comment LIKE '%special%'), count_if(o_comment LIKE 'final%'), count_if(o_comment NOT LIKE '%e%'), count_if(o_clerk LIKE 'Clerk#00000000_')
FROM orders;

-- name: replace_and_position
SELECT n_nationkey, replace(n_name, 'A', 'a'), strpos(n_name, 'A'), position('N' IN n_name), reverse(n_name)
FROM nation
ORDER BY n_nationkey;

-- name: date_functions_on_orders
SELECT o_orderkey, year(o_orderdate), month(o_orderdate), day(o_orderdate), quarter(o_orderdate), date_diff('day', o_orderdate, date '1998-12-31')
FROM orders
WHERE o_orderkey < 200
ORDER BY o_orderkey;

-- name: ship_delay_histogram
SELECT date_diff('day', l_shipdate, l_receiptdate) AS delay, count(*)
FROM lineitem
GROUP BY date_diff('day', l_shipdate, l_receiptdate)
ORDER BY delay;

-- name: union_distinct_keys
SELECT k FROM (SELECT c_nationkey AS k FROM customer UNION SELECT s_nationkey FROM supplier UNION SELECT r_regionkey FROM region) AS u;

-- name: except_all_intersect_all
SELECT x FROM (SELECT l_linenumber AS x FROM lineitem WHERE l_orderkey < 100 EXCEPT ALL SELECT l_linenumber FROM lineitem WHERE l_orderkey < 50) AS e
ORDER BY x;

-- name: intersect_all_linenumbers
SELECT x FROM (SELECT l_linenumber AS x FROM lineitem WHERE l_orderkey < 60 INTERSECT ALL SELECT l_linenumber FROM lineitem WHERE l_orderkey BETWEEN 30 AND 90) AS i
ORDER BY x;

-- name: full_join_nations_suppliers
SELECT n.n_nationkey, s.cnt
FROM nation AS n FULL JOIN (SELECT s_nationkey, count(*) AS cnt FROM supplier WHERE s_acctbal > 9000 GROUP BY s_nationkey) AS s ON n.n_nationkey = s.s_nationkey
ORDER BY n.n_nationkey;

-- name: right_join_orders_customers
SELECT count(*), count(o_orderkey), count(c_custkey)
FROM (SELECT * FROM orders WHERE o_orderkey < 1000) AS o RIGHT JOIN (SELECT * FROM customer WHERE c_custkey < 500) AS c ON o_custkey = c_custkey;

-- name: cross_join_regions
SELECT a.r_name, b.r_name
FROM region AS a CROSS JOIN region AS b
WHERE a.r_regionkey < b.r_regionkey
ORDER BY 1, 2;

-- name: having_on_distinct_count
SELECT o_custkey, count(DISTINCT o_orderpriority) AS pr
FROM orders
WHERE o_custkey < 300
GROUP BY o_custkey
HAVING count(DISTINCT o_orderpriority) = 5
ORDER BY o_custkey;

-- name: decimal_arithmetic
SELECT l_orderkey, l_linenumber, l_extendedprice * (1 - l_discount), l_extendedprice * l_tax, l_quantity * 2 + 1, -l_extendedprice
FROM lineitem
WHERE l_orderkey < 10
ORDER BY l_orderkey, l_linenumber;

-- name: double_arithmetic
SELECT p_partkey, CAST(p_retailprice AS double) / 3, sqrt(CAST(p_size AS double)), CAST(p_retailprice AS double) * 1.1e0
FROM part
WHERE p_partkey <= 20
ORDER BY p_partkey;

-- name: casts_between_types
SELECT o_orderkey, CAST(o_totalprice AS bigint), CAST(o_orderkey AS varchar), CAST(o_orderdate AS varchar), CAST(o_shippriority AS double)
FROM orders
WHERE o_orderkey < 40
ORDER BY o_orderkey;

-- name: nulls_is_distinct_from
SELECT count_if(a.k IS DISTINCT FROM b.k), count_if(a.k IS NOT DISTINCT FROM b.k), count(*)
FROM nulls_t AS a JOIN nulls_t AS b ON a.id + 1 = b.id;

-- name: nulls_in_lists
SELECT count_if(k IN (1, 2, 3)), count_if(k NOT IN (1, 2, 3)), count_if(k IN (1, NULL)), count_if(grp IN ('a', 'b'))
FROM nulls_t;

-- name: nulls_sort_both_ways
SELECT id, grp, amount
FROM nulls_t
WHERE id < 40
ORDER BY grp DESC NULLS FIRST, amount NULLS LAST, id;

-- name: nulls_aggregate_all_null_group
SELECT k IS NULL AS knull, count(*), count(k), sum(k), min(k), max(amount), bool_and(flag), bool_or(flag)
FROM nulls_t
GROUP BY k IS NULL
ORDER BY knull;

-- name: nulls_case_and_coalesce
SELECT grp, sum(CASE WHEN f IS NULL THEN 1 ELSE 0 END), sum(coalesce(f, 0)), count(nullif(k, 0))
FROM nulls_t
GROUP BY grp
ORDER BY grp NULLS LAST;

-- name: nulls_left_anti
SELECT a.id
FROM nulls_t AS a LEFT JOIN nation AS n ON a.k = n.n_nationkey AND n.n_regionkey = 2
WHERE n.n_nationkey IS NULL AND a.id < 30
ORDER BY a.id;

-- name: nulls_exists_correlated
SELECT count(*)
FROM nulls_t AS a
WHERE EXISTS (SELECT 1 FROM nulls_t AS b WHERE b.k = a.k AND b.id <> a.id AND b.grp = a.grp);

-- name: nulls_scalar_subquery_empty
SELECT id, (SELECT max(amount) FROM nulls_t AS b WHERE b.k = a.k AND b.id < a.id)
FROM nulls_t AS a
WHERE id < 30
ORDER BY id;
