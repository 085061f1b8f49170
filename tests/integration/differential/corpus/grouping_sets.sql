-- Grouping sets (ROLLUP, CUBE, GROUPING SETS, grouping()) over the TPC-H tables and nulls_t.
-- Each query follows a "-- name: <id>" line and ends with ';'. Outer ORDER BYs are total
-- (grouping() and the keys, NULLs placed explicitly), so both engines agree row by row.

-- name: grouping_rollup_lineitem_flag_status
SELECT l_returnflag, l_linestatus, grouping(l_returnflag, l_linestatus) AS g,
       count(*) AS n, sum(l_quantity) AS qty, min(l_shipdate) AS first_ship
FROM lineitem
GROUP BY ROLLUP(l_returnflag, l_linestatus)
ORDER BY g, l_returnflag NULLS FIRST, l_linestatus NULLS FIRST;

-- name: grouping_cube_orders_status_priority
SELECT o_orderstatus, o_orderpriority, grouping(o_orderstatus, o_orderpriority) AS g,
       count(*) AS n, max(o_totalprice) AS top
FROM orders
GROUP BY CUBE(o_orderstatus, o_orderpriority)
ORDER BY g, o_orderstatus NULLS FIRST, o_orderpriority NULLS FIRST;

-- name: grouping_sets_nation_region
SELECT r_name, n_name, grouping(r_name) AS gr, grouping(n_name) AS gn, count(*) AS suppliers,
       sum(s_acctbal) AS balance
FROM supplier JOIN nation ON s_nationkey = n_nationkey JOIN region ON n_regionkey = r_regionkey
GROUP BY GROUPING SETS ((r_name), (n_name), ())
ORDER BY gr, gn, r_name NULLS FIRST, n_name NULLS FIRST;

-- name: grouping_nulls_t_null_keys_vs_rollup
SELECT grp, flag, grouping(grp, flag) AS g, count(*) AS n, count(amount) AS amounts,
       sum(amount) AS total
FROM nulls_t
GROUP BY ROLLUP(grp, flag)
ORDER BY g, grp NULLS FIRST, flag NULLS FIRST;

-- name: grouping_nulls_t_cube_having
SELECT grp, k % 3 AS k3, grouping(grp, k % 3) AS g, count(*) AS n, max(d) AS last_d
FROM nulls_t
GROUP BY CUBE(grp, k % 3)
HAVING count(*) > 10 OR grouping(grp, k % 3) = 3
ORDER BY g, grp NULLS FIRST, k3 NULLS FIRST;

-- name: grouping_mixed_distinct_and_filter
SELECT c_mktsegment, grouping(c_mktsegment) AS g, count(DISTINCT c_nationkey) AS nations,
       count(*) FILTER (WHERE c_acctbal > 5000) AS rich, sum(c_acctbal) AS balance
FROM customer
GROUP BY ROLLUP(c_mktsegment)
ORDER BY g, c_mktsegment NULLS FIRST;
