"""PostgreSQL through a real server: schema, BOXes and read-only queries.

Runs when PANDORA_TEST_POSTGRES_URL names a server where the test may create
tables (`.ci/start-postgres` sets one up on loopback); otherwise it is skipped
with that reason.
"""

from __future__ import annotations

import os

import pytest
import sqlalchemy

from plugins import Workspace, load_source
from plugins.pandas_box import workspace_boxes
from plugins.sql_schema import QueryFailed, QueryRefused, run_query

POSTGRES_URL = os.environ.get("PANDORA_TEST_POSTGRES_URL")

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        not POSTGRES_URL,
        reason="no PostgreSQL server: set PANDORA_TEST_POSTGRES_URL (see .ci/start-postgres)",
    ),
]


@pytest.fixture(scope="module")
def shop_url():
    engine = sqlalchemy.create_engine(POSTGRES_URL)
    with engine.begin() as connection:
        connection.exec_driver_sql("DROP TABLE IF EXISTS line, orders, customer CASCADE")
        connection.exec_driver_sql("DROP SEQUENCE IF EXISTS ticket")
        connection.exec_driver_sql(
            "CREATE TABLE customer (id integer PRIMARY KEY, name text NOT NULL, city text)"
        )
        connection.exec_driver_sql(
            "CREATE TABLE orders (id integer PRIMARY KEY, customer_id integer "
            "REFERENCES customer(id), total numeric(10,2), placed date)"
        )
        connection.exec_driver_sql("CREATE SEQUENCE ticket")
        connection.exec_driver_sql(
            "INSERT INTO customer VALUES (1, 'Ana', 'Lima'), (2, 'Bo', 'Oslo'), (3, 'Cy', NULL)"
        )
        connection.exec_driver_sql(
            "INSERT INTO orders VALUES (10, 1, 12.50, '2024-01-02'), (11, 1, 3.25, '2024-02-03'), "
            "(12, 2, 99.99, '2024-03-04')"
        )
    engine.dispose()
    return POSTGRES_URL


def test_postgres_schema_and_boxes(shop_url):
    source = load_source(shop_url)
    assert source.kind == "database" and source.plugin == "sqlalchemy"
    boxes = {box.name: box for box in workspace_boxes(Workspace.of([source]))}
    assert {"customer", "orders"} <= set(boxes)
    assert [(k.field, k.ref_box, k.ref_field) for k in boxes["orders"].foreign_keys] == [
        ("customer_id", "customer", "id")
    ]
    assert boxes["orders"].frame["total"].dtype == "float64"
    assert len(boxes["customer"].frame) == 3


def test_postgres_queries_read_only_and_bounded(shop_url):
    workspace = Workspace.of([load_source(shop_url)])
    result = run_query(
        workspace,
        "SELECT c.name, SUM(o.total)::float FROM orders o JOIN customer c ON c.id = o.customer_id "
        "GROUP BY c.name ORDER BY c.name",
    )
    assert result.rows == [["Ana", 15.75], ["Bo", 99.99]]
    with pytest.raises(QueryRefused):
        run_query(workspace, "WITH gone AS (DELETE FROM orders RETURNING *) SELECT * FROM gone")
    with pytest.raises(QueryFailed, match="read-only"):
        run_query(workspace, "SELECT nextval('ticket')")  # passes the parser; the server refuses
    with pytest.raises(QueryFailed, match="time limit"):
        run_query(workspace, "SELECT pg_sleep(5)", timeout_seconds=0.5)
    assert run_query(workspace, "SELECT COUNT(*) FROM orders").rows == [[3]]
