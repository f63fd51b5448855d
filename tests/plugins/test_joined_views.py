"""Joined views: which foreign-key chains become one view, what their fields
are called, and that a view's rows are the rows of the joined tables, in SQL
and as a pandas BOX."""

from __future__ import annotations

import math
import sqlite3
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaluation.datasets.temptabqa import Infobox, write_database
from plugins import Workspace, get_registry, load_source
from plugins.joined_views import MAX_BASE_TABLES, database_joined_views
from plugins.sql_schema import run_query

MEDALS = Infobox(
    name="Ann Example",
    country="NOR",
    personal={"birth_date": "1990-01-02"},
    tournaments=[
        ("Olympic Games", [("Singles", [("Gold", 2016, "Rio"), ("Silver", 2020, "")])]),
        ("World Championships", [("Doubles", [("Bronze", 2019, "Oslo")])]),
    ],
)


def medal_database(tmp_path):
    """A database exactly as the TempTabQA-C reader writes one."""
    return write_database(MEDALS, tmp_path / "medals.sqlite")


def test_the_medal_chain_is_one_view_with_plain_field_names(tmp_path):
    database = load_source(str(medal_database(tmp_path))).handle
    views = database_joined_views(database)
    assert [view.name for view in views] == ["medal_details"]
    (view,) = views
    assert view.tables == ("Medal", "Format", "Tournament", "Athlete", "PersonalInformation")
    assert [column.name for column in view.columns] == [
        "medal_id",
        "medal_type",
        "year",
        "location",
        "format_name",
        "tournament_name",
        "athlete_name",
        "country",
        "birth_date",
        "birth_year",
        "birth_place",
        "height",
        "weight",
        "coach",
    ]


def test_an_extension_keyed_by_its_tables_key_joins_the_view_and_has_none_of_its_own(tmp_path):
    path = create(
        tmp_path / "extended.sqlite",
        """
        CREATE TABLE region (region_id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE city (city_id INTEGER PRIMARY KEY, name TEXT,
                           region_id INTEGER REFERENCES region(region_id));
        CREATE TABLE city_climate (city_id INTEGER PRIMARY KEY REFERENCES city(city_id),
                                   rainfall REAL);
        CREATE TABLE visit (visit_id INTEGER PRIMARY KEY, day TEXT,
                            city_id INTEGER REFERENCES city(city_id));
        """,
    )
    (view,) = database_joined_views(load_source(str(path)).handle)
    assert view.tables == ("visit", "city", "region", "city_climate")
    assert [column.name for column in view.columns] == [
        "visit_id",
        "day",
        "city_name",
        "region_name",
        "rainfall",
    ]


def create(path, script: str):
    connection = sqlite3.connect(path)
    connection.executescript(script)
    connection.close()
    return path


def test_no_view_without_a_chain_of_two_joins(tmp_path):
    path = create(
        tmp_path / "short.sqlite",
        """
        CREATE TABLE team (team_id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE player (player_id INTEGER PRIMARY KEY, name TEXT,
                             team_id INTEGER REFERENCES team(team_id));
        CREATE TABLE note (text TEXT);
        """,
    )
    assert database_joined_views(load_source(str(path)).handle) == []


def test_keys_to_columns_that_are_not_the_primary_key_make_no_chain(tmp_path):
    path = create(
        tmp_path / "loose.sqlite",
        """
        CREATE TABLE country (code TEXT, name TEXT);
        CREATE TABLE city (city_id INTEGER PRIMARY KEY, country_code TEXT
                           REFERENCES country(code));
        CREATE TABLE shop (shop_id INTEGER PRIMARY KEY, city_id INTEGER
                           REFERENCES city(city_id));
        """,
    )
    assert database_joined_views(load_source(str(path)).handle) == []


def test_a_large_schema_gets_no_views(tmp_path):
    tables = [
        "CREATE TABLE t0 (t0_id INTEGER PRIMARY KEY);",
        *(
            f"CREATE TABLE t{n} (t{n}_id INTEGER PRIMARY KEY, "
            f"t{n - 1}_id INTEGER REFERENCES t{n - 1}(t{n - 1}_id));"
            for n in range(1, MAX_BASE_TABLES + 1)
        ),
    ]
    path = create(tmp_path / "wide.sqlite", "\n".join(tables))
    assert database_joined_views(load_source(str(path)).handle) == []
    path = create(tmp_path / "narrow.sqlite", "\n".join(tables[:4]))
    (view,) = database_joined_views(load_source(str(path)).handle)
    assert view.name == "t3_details"
    assert len(view.links) == 3


CHAIN_SCHEMA = """
CREATE TABLE region (region_id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE city (city_id INTEGER PRIMARY KEY, name TEXT,
                   region_id INTEGER REFERENCES region(region_id));
CREATE TABLE shop (shop_id INTEGER PRIMARY KEY, name TEXT, size INTEGER,
                   city_id INTEGER REFERENCES city(city_id));
CREATE TABLE sale (sale_id INTEGER PRIMARY KEY, amount REAL,
                   shop_id INTEGER REFERENCES shop(shop_id));
"""
EXPLICIT_JOIN = """
SELECT sale.sale_id, sale.amount, shop.name, shop.size, city.name, region.name
FROM sale
LEFT JOIN shop ON sale.shop_id = shop.shop_id
LEFT JOIN city ON shop.city_id = city.city_id
LEFT JOIN region ON city.region_id = region.region_id
"""
names = st.sampled_from(["north", "south", "Oslo", "", None])
keys = st.one_of(st.none(), st.integers(1, 5))


@st.composite
def chain_rows(draw):
    """Rows of the four tables; references may be missing or point nowhere."""
    regions = draw(st.lists(st.integers(1, 4), unique=True, max_size=4))
    cities = draw(st.lists(st.integers(1, 5), unique=True, max_size=5))
    shops = draw(st.lists(st.integers(1, 5), unique=True, max_size=5))
    sales = draw(st.integers(0, 8))
    return {
        "region": [(key, draw(names)) for key in regions],
        "city": [(key, draw(names), draw(keys)) for key in cities],
        "shop": [(key, draw(names), draw(keys), draw(keys)) for key in shops],
        "sale": [(key, draw(st.floats(0, 100, width=32)), draw(keys)) for key in range(sales)],
    }


def plain(value):
    """A cell as SQL returns it: pandas' NaN is NULL, 3.0 in an integer column is 3."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def rows_of(frame):
    """A frame's rows as a multiset of plain values."""
    return Counter(tuple(map(plain, row)) for row in frame.itertuples(index=False))


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rows=chain_rows())
def test_a_view_has_the_rows_of_the_explicit_join_in_sql_and_pandas(tmp_path_factory, rows):
    path = tmp_path_factory.mktemp("chain") / "shops.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(CHAIN_SCHEMA)
    for table, values in rows.items():
        for row in values:
            connection.execute(f"INSERT INTO {table} VALUES ({', '.join('?' for _ in row)})", row)
    connection.commit()
    expected = Counter(tuple(map(plain, row)) for row in connection.execute(EXPLICIT_JOIN))
    connection.close()

    workspace = Workspace.of([load_source(str(path))])
    result = run_query(workspace, "SELECT * FROM sale_details")
    assert result.columns == [
        "sale_id",
        "amount",
        "shop_name",
        "size",
        "city_name",
        "region_name",
    ]
    assert Counter(tuple(map(plain, row)) for row in result.rows) == expected

    namespace = get_registry().representation("pandas").namespace(workspace)
    frame = namespace["sale_details"]
    assert list(frame.columns) == result.columns
    merged = (
        namespace["sale"]
        .merge(namespace["shop"], how="left", on="shop_id", suffixes=("", "_shop"))
        .merge(namespace["city"], how="left", on="city_id", suffixes=("", "_city"))
        .merge(namespace["region"], how="left", on="region_id", suffixes=("", "_region"))
    )
    explicit = merged[["sale_id", "amount", "name", "size", "name_city", "name_region"]]
    assert rows_of(frame) == rows_of(explicit)
