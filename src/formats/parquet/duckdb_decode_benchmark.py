"""DuckDB's side of parquet_reader_benchmark: times read_parquet decoding every column.

Usage: python duckdb_decode_benchmark.py FILE THREADS ITERATIONS
Prints one line per iteration: the wall seconds of one full decode. The query takes the
max of every column, which makes DuckDB decode every value of every column (count(*)
alone would be answered from the footer); the aggregate is extra work on DuckDB's side.

Also: python duckdb_decode_benchmark.py --generate FILE
writes the TPC-H SF1 lineitem table (6,001,215 rows; bigint, decimal(15,2), date and
varchar columns) with zstd, via DuckDB's tpch extension (pinned in tests/peers).
"""

import os
import sys
import time

import duckdb


def generate(path):
    import duckdb_extension_tpch

    ext = os.path.join(os.path.dirname(duckdb_extension_tpch.__file__), "extensions",
                       "v" + duckdb.__version__, "tpch.duckdb_extension")
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    con.execute("LOAD '%s'" % ext)
    con.execute("CALL dbgen(sf = 1)")
    tmp = path + ".tmp"
    con.execute("COPY lineitem TO '%s' (FORMAT parquet, COMPRESSION zstd)" % tmp)
    os.replace(tmp, path)


def main():
    if sys.argv[1] == "--generate":
        generate(sys.argv[2])
        return
    path, threads, iterations = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    con = duckdb.connect()
    con.execute("SET threads = %d" % threads)
    con.execute("SET enable_progress_bar = false")
    cols = [r[0] for r in con.execute("DESCRIBE SELECT * FROM read_parquet(?)", [path]).fetchall()]
    query = "SELECT %s FROM read_parquet('%s')" % (", ".join("max(%s)" % c for c in cols), path)
    con.execute(query).fetchall()  # warm-up (page cache, metadata)
    for _ in range(iterations):
        start = time.perf_counter()
        con.execute(query).fetchall()
        print("%.6f" % (time.perf_counter() - start), flush=True)


if __name__ == "__main__":
    main()
