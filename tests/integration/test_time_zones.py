"""Time zones kept on timestamp with time zone values, seen through the real clients.

The Trino Python client reads the zone name from the value text ("... America/New_York") and
Arrow readers find it in the schema (timestamp[us, tz=Asia/Tokyo]); the Trino type name stays
"timestamp(6) with time zone". The Trino session zone (X-Trino-Time-Zone) is the zone a
timestamp without zone is read in. Expected values are worked out by hand from the tz rules.
"""

from __future__ import annotations

import datetime

import pyarrow as pa

# The servers and clients of the protocol tests (fixtures and helpers, not copies).
from test_flight_sql import adbc_connect, flight_server  # noqa: F401
from test_trino_protocol import connect, run, trino_server  # noqa: F401

UTC = datetime.timezone.utc


def test_trino_client_gets_the_zone_of_at_time_zone(trino_server, server_config):
    conn = connect(server_config)
    cur, rows = run(conn, """
        SELECT TIMESTAMP '2020-06-01 12:00:00 UTC' AT TIME ZONE 'America/New_York' AS ny,
               TIMESTAMP '2020-06-01 12:00:00 UTC' AT TIME ZONE '+05:30' AS fixed,
               with_timezone(TIMESTAMP '2021-03-14 02:30:00', 'America/New_York') AS gap,
               timezone_hour(TIMESTAMP '2020-01-15 12:00:00 UTC' AT TIME ZONE
                             'America/New_York') AS winter_hour""")
    ny, fixed, gap, winter_hour = rows[0]
    assert (ny.hour, ny.minute) == (8, 0)
    assert ny.utcoffset() == datetime.timedelta(hours=-4)
    assert ny.astimezone(UTC) == datetime.datetime(2020, 6, 1, 12, tzinfo=UTC)
    assert fixed.hour == 17 and fixed.minute == 30
    assert fixed.utcoffset() == datetime.timedelta(hours=5, minutes=30)
    # 02:30 does not exist on 2021-03-14 in New York: 03:30 EDT.
    assert (gap.hour, gap.minute) == (3, 30)
    assert gap.astimezone(UTC) == datetime.datetime(2021, 3, 14, 7, 30, tzinfo=UTC)
    assert winter_hour == -5
    assert [col[1] for col in cur.description][:3] == ["timestamp(6) with time zone"] * 3


def test_trino_session_zone_reads_timestamps_without_zone(trino_server, server_config):
    conn = connect(server_config, timezone="Asia/Tokyo")
    _, rows = run(conn, """
        SELECT CAST(TIMESTAMP '2020-06-01 12:00:00' AS timestamp with time zone),
               TIMESTAMP '2020-06-01 12:00:00' AT TIME ZONE 'UTC',
               hour(TIMESTAMP '2020-06-01 12:00:00 UTC' AT TIME ZONE LOCAL),
               current_timestamp""")
    in_tokyo, in_utc, local_hour, now = rows[0]
    assert now.utcoffset() == datetime.timedelta(hours=9)
    assert in_tokyo.utcoffset() == datetime.timedelta(hours=9) and in_tokyo.hour == 12
    assert in_utc == datetime.datetime(2020, 6, 1, 3, tzinfo=UTC)
    assert local_hour == 21


def test_flight_sql_schema_carries_the_zone(flight_server, server_config):
    with adbc_connect(server_config) as conn, conn.cursor() as cur:
        cur.execute("SELECT TIMESTAMP '2020-06-01 12:00:00 UTC' AT TIME ZONE 'Asia/Tokyo' AS t, "
                    "CAST(NULL AS timestamp with time zone) AT TIME ZONE 'Asia/Tokyo' AS n, "
                    "TIMESTAMP '2020-06-01 12:00:00 UTC' AS u")
        table = cur.fetch_arrow_table()
    assert table.schema.field("t").type == pa.timestamp("us", tz="Asia/Tokyo")
    assert table.schema.field("u").type == pa.timestamp("us", tz="UTC")
    row = table.to_pylist()[0]
    assert row["t"].astimezone(UTC) == datetime.datetime(2020, 6, 1, 12, tzinfo=UTC)
    assert row["t"].hour == 21
    assert row["n"] is None
