-- Window function queries over the TPC-H tables and nulls_t. Each query follows a
-- "-- name: <id>" line and ends with ';'. Every ordering the result depends on is total
-- (ties broken by a key), so both engines agree row by row.

-- name: window_rank_customers_by_balance_per_nation
SELECT c_nationkey, c_custkey, c_acctbal,
       rank() OVER (PARTITION BY c_nationkey ORDER BY c_acctbal DESC, c_custkey) AS r,
       dense_rank() OVER (ORDER BY c_nationkey) AS dn
FROM customer
WHERE c_custkey <= 300
ORDER BY c_nationkey, r;

-- name: window_top3_orders_per_customer
SELECT o_custkey, o_orderkey, o_totalprice
FROM (SELECT o_custkey, o_orderkey, o_totalprice,
             row_number() OVER (PARTITION BY o_custkey ORDER BY o_totalprice DESC, o_orderkey) AS rn
      FROM orders WHERE o_custkey <= 200) AS t
WHERE rn <= 3
ORDER BY o_custkey, rn;

-- name: window_running_revenue_by_date
SELECT o_orderdate, day_total,
       sum(day_total) OVER (ORDER BY o_orderdate) AS running,
       sum(day_total) OVER (ORDER BY o_orderdate ROWS BETWEEN 6 PRECEDING AND CURRENT ROW) AS week
FROM (SELECT o_orderdate, sum(o_totalprice) AS day_total FROM orders GROUP BY o_orderdate) AS d
ORDER BY o_orderdate;

-- name: window_share_of_nation_total
SELECT n_name, s_suppkey, s_acctbal, sum(s_acctbal) OVER (PARTITION BY n_name) AS nation_total,
       count(*) OVER (PARTITION BY n_name) AS suppliers
FROM supplier JOIN nation ON s_nationkey = n_nationkey
WHERE s_suppkey <= 200
ORDER BY n_name, s_suppkey;

-- name: window_lag_lead_lineitem
SELECT l_orderkey, l_linenumber, l_quantity,
       lag(l_quantity) OVER (PARTITION BY l_orderkey ORDER BY l_linenumber) AS prev_q,
       lead(l_quantity, 2, 0) OVER (PARTITION BY l_orderkey ORDER BY l_linenumber) AS next2_q,
       l_quantity - lag(l_quantity, 1, l_quantity) OVER (PARTITION BY l_orderkey ORDER BY l_linenumber) AS diff
FROM lineitem
WHERE l_orderkey < 300
ORDER BY l_orderkey, l_linenumber;

-- name: window_first_last_nth_per_order
SELECT l_orderkey, l_linenumber,
       first_value(l_partkey) OVER (PARTITION BY l_orderkey ORDER BY l_linenumber) AS first_part,
       last_value(l_partkey) OVER (PARTITION BY l_orderkey ORDER BY l_linenumber ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS last_part,
       nth_value(l_partkey, 2) OVER (PARTITION BY l_orderkey ORDER BY l_linenumber ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS second_part
FROM lineitem
WHERE l_orderkey < 200
ORDER BY l_orderkey, l_linenumber;

-- name: window_ntile_percent_rank_cume_dist
SELECT p_partkey, p_retailprice,
       ntile(4) OVER (ORDER BY p_retailprice, p_partkey) AS quartile,
       percent_rank() OVER (ORDER BY p_retailprice) AS pr,
       cume_dist() OVER (ORDER BY p_retailprice) AS cd
FROM part
WHERE p_partkey <= 500
ORDER BY p_partkey;

-- name: window_range_and_groups_frames
SELECT o_orderkey, o_shippriority, o_orderdate,
       count(*) OVER (ORDER BY o_orderdate RANGE BETWEEN INTERVAL '3' DAY PRECEDING AND CURRENT ROW) AS recent,
       sum(o_orderkey) OVER (ORDER BY o_orderdate GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS nearby
FROM orders
WHERE o_orderkey < 2000
ORDER BY o_orderkey;

-- name: window_over_grouped_aggregates
SELECT l_returnflag, l_linestatus, sum(l_quantity) AS q,
       rank() OVER (ORDER BY sum(l_quantity) DESC) AS r,
       sum(sum(l_quantity)) OVER (PARTITION BY l_returnflag) AS flag_total
FROM lineitem
GROUP BY l_returnflag, l_linestatus
ORDER BY l_returnflag, l_linestatus;

-- name: window_nulls_partitions_and_keys
SELECT id, grp, k,
       row_number() OVER (PARTITION BY grp ORDER BY k NULLS FIRST, id) AS rn,
       count(k) OVER (PARTITION BY grp ORDER BY id ROWS BETWEEN 3 PRECEDING AND 3 FOLLOWING) AS cnt,
       sum(k) OVER (PARTITION BY grp ORDER BY k, id) AS running,
       max(amount) OVER (PARTITION BY k) AS max_amount
FROM nulls_t
ORDER BY id;

-- name: window_in_order_by_with_limit
SELECT c_custkey, c_acctbal
FROM customer
ORDER BY row_number() OVER (ORDER BY c_acctbal DESC, c_custkey)
LIMIT 15;

-- name: window_moving_average_double
SELECT o_orderkey, avg(CAST(o_totalprice AS double)) OVER (ORDER BY o_orderkey ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS ma,
       stddev_samp(CAST(o_totalprice AS double)) OVER (ORDER BY o_orderkey ROWS BETWEEN 4 PRECEDING AND CURRENT ROW) AS sd
FROM orders
WHERE o_orderkey < 500
ORDER BY o_orderkey;
