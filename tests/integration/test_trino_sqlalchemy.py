"""The trino Python client's SQLAlchemy dialect (what Superset uses) against sqe-server's
Trino HTTP port: the Inspector's metadata calls (schemas, tables, views, columns with their
types, table comments, primary keys) and a Core query."""

from __future__ import annotations

import decimal

import pytest

from test_trino_protocol import connect, run, trino_server  # noqa: F401 (fixture)

sqlalchemy = pytest.importorskip("sqlalchemy")
pytest.importorskip("trino.sqlalchemy")


@pytest.fixture
def engine(trino_server, server_config):  # noqa: F811
    conn = connect(server_config, catalog="iceberg")
    run(conn, "CREATE SCHEMA IF NOT EXISTS shop")
    run(conn, "CREATE TABLE shop.items (id bigint, name varchar, price decimal(10,2), "
              "day date, at timestamp(6))")
    run(conn, "INSERT INTO shop.items VALUES (1, 'apple', 1.25, DATE '2024-01-02', "
              "TIMESTAMP '2024-01-02 03:04:05'), (2, 'pear', 2.50, NULL, NULL)")
    url = f"trino://dev@127.0.0.1:{server_config.ports.trino_http}/iceberg"
    eng = sqlalchemy.create_engine(url)
    yield eng
    eng.dispose()


def test_inspector_lists_schemas_tables_and_columns(engine):
    inspector = sqlalchemy.inspect(engine)
    schemas = inspector.get_schema_names()
    assert "shop" in schemas and "information_schema" in schemas
    assert inspector.get_table_names(schema="shop") == ["items"]
    assert inspector.get_view_names(schema="shop") == []
    assert inspector.has_table("items", schema="shop")
    assert not inspector.has_table("nothing", schema="shop")
    columns = inspector.get_columns("items", schema="shop")
    assert [c["name"] for c in columns] == ["id", "name", "price", "day", "at"]
    types = {c["name"]: c["type"] for c in columns}
    assert isinstance(types["id"], sqlalchemy.BIGINT)
    assert isinstance(types["name"], sqlalchemy.VARCHAR)
    assert isinstance(types["price"], sqlalchemy.DECIMAL)
    assert (types["price"].precision, types["price"].scale) == (10, 2)
    assert isinstance(types["day"], sqlalchemy.DATE)
    assert isinstance(types["at"], sqlalchemy.TIMESTAMP)
    assert inspector.get_pk_constraint("items", schema="shop")["constrained_columns"] == []
    assert inspector.get_table_comment("items", schema="shop")["text"] is None


def test_core_query(engine):
    items = sqlalchemy.Table("items", sqlalchemy.MetaData(), schema="shop",
                             autoload_with=engine)
    query = sqlalchemy.select(items.c.name, items.c.price).where(items.c.id > 1)
    with engine.connect() as conn:
        rows = conn.execute(query).fetchall()
    assert [tuple(r) for r in rows] == [("pear", decimal.Decimal("2.50"))]
