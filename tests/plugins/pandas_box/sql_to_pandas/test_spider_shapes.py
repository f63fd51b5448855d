# ruff: noqa: E501  (one SQL query per line reads better than split strings)
"""Every query here is translated to pandas and both are run through the executor on
the concerts database (tests' conftest); the rows must match, in order when the
query has a top-level ORDER BY. The shapes are those of Spider's gold SQL."""

from __future__ import annotations

import itertools

import pytest

from plugins import Workspace
from plugins.pandas_box import workspace_boxes
from plugins.pandas_box.sql_to_pandas import translate_sql, verify_translation

HAND_WRITTEN = [
    # projection, filters
    "SELECT count(*) FROM singer",
    "SELECT name, country, age FROM singer ORDER BY age DESC",
    "SELECT * FROM stadium",
    "SELECT DISTINCT country FROM singer WHERE age > 20",
    "SELECT name FROM singer WHERE country = 'France' AND age > 30",
    'SELECT name FROM singer WHERE country = "France" OR age < 30',
    "SELECT name FROM singer WHERE NOT country = 'France'",
    "SELECT name FROM singer WHERE country != 'France'",
    "SELECT name FROM singer WHERE country IS NULL",
    "SELECT name FROM singer WHERE country IS NOT NULL AND age IS NOT NULL",
    "SELECT song_name FROM singer WHERE song_name LIKE '%a%'",
    "SELECT song_name FROM singer WHERE song_name LIKE 'S%'",
    "SELECT name FROM singer WHERE name LIKE '_oe%'",
    "SELECT name FROM singer WHERE name NOT LIKE '%j%'",
    "SELECT name FROM stadium WHERE capacity BETWEEN 3100 AND 4125",
    "SELECT name FROM stadium WHERE capacity NOT BETWEEN 3100 AND 4125",
    "SELECT name FROM singer WHERE country IN ('France', 'Netherlands')",
    "SELECT name FROM singer WHERE country NOT IN ('France', 'Netherlands')",
    "SELECT concert_name FROM concert WHERE year = 2014",
    "SELECT concert_name FROM concert WHERE year = '2015'",
    "SELECT concert_name FROM concert WHERE year > 2014",
    "SELECT name FROM singer WHERE age = '32'",
    "SELECT name, capacity / 1000 FROM stadium",
    "SELECT name, average / capacity FROM stadium",
    "SELECT name, capacity * 2 + 1 FROM stadium",
    "SELECT name, capacity - average FROM stadium ORDER BY capacity - average",
    "SELECT name || ' (' || location || ')' FROM stadium",
    "SELECT lower(name), upper(country) FROM singer",
    "SELECT length(name) FROM singer ORDER BY length(name), name",
    "SELECT name FROM singer WHERE lower(country) = 'france'",
    "SELECT abs(age - 40) FROM singer",
    "SELECT round(average, 1) FROM stadium",
    "SELECT CAST(year AS INTEGER) + 1 FROM concert",
    "SELECT name, CASE WHEN age > 40 THEN 'old' WHEN age > 30 THEN 'middle' ELSE 'young' END FROM singer",
    "SELECT name, CASE is_male WHEN 'T' THEN 'male' ELSE 'female' END FROM singer",
    "SELECT name FROM stadium WHERE (capacity > 4000 OR average > 2000) AND location LIKE '%a%'",
    # ordering and limits (NULLs are the smallest value in SQLite)
    "SELECT name FROM singer ORDER BY age",
    "SELECT name FROM singer ORDER BY age DESC",
    "SELECT name, net_worth FROM singer ORDER BY net_worth DESC LIMIT 3",
    "SELECT name FROM singer ORDER BY country, age DESC",
    "SELECT name FROM singer ORDER BY name LIMIT 2 OFFSET 1",
    "SELECT name, age FROM singer ORDER BY 2 DESC, 1",
    "SELECT name AS singer_name FROM singer ORDER BY singer_name",
    "SELECT name FROM stadium ORDER BY capacity DESC LIMIT 1",
    "SELECT DISTINCT country FROM singer ORDER BY country",
    # aggregates
    "SELECT avg(age), min(age), max(age) FROM singer WHERE country = 'France'",
    "SELECT count(country) FROM singer",
    "SELECT count(DISTINCT country) FROM singer",
    "SELECT sum(net_worth) FROM singer WHERE country = 'France'",
    "SELECT sum(net_worth) FROM singer WHERE country = 'Nowhere'",
    "SELECT max(capacity), avg(capacity) FROM stadium",
    "SELECT name, max(age) FROM singer",
    "SELECT name, min(net_worth) FROM singer",
    "SELECT count(*) FROM singer WHERE age > (SELECT avg(age) FROM singer)",
    "SELECT max(capacity) - min(capacity) FROM stadium",
    "SELECT sum(capacity) / count(*) FROM stadium",
    "SELECT count(*) FROM concert WHERE year = '2014' OR year = '2016'",
    # GROUP BY and HAVING
    "SELECT country, count(*) FROM singer GROUP BY country",
    "SELECT country, avg(age) FROM singer GROUP BY country",
    "SELECT country FROM singer GROUP BY country HAVING count(*) > 1",
    "SELECT country, max(age) FROM singer GROUP BY country HAVING max(age) > 35",
    "SELECT year, count(*) FROM concert GROUP BY year ORDER BY count(*) DESC",
    "SELECT year FROM concert GROUP BY year ORDER BY count(*) DESC LIMIT 1",
    "SELECT pet_type, avg(weight), max(age) FROM pets GROUP BY pet_type",
    "SELECT is_male, country, count(*) FROM singer GROUP BY is_male, country",
    "SELECT country, name, max(age) FROM singer GROUP BY country",
    "SELECT country, count(DISTINCT is_male) FROM singer GROUP BY country",
    "SELECT country, sum(net_worth) FROM singer GROUP BY country ORDER BY sum(net_worth)",
    "SELECT lower(pet_type), count(*) FROM pets GROUP BY lower(pet_type)",
    "SELECT country, count(*) AS total FROM singer GROUP BY country ORDER BY total DESC, country",
    "SELECT country, avg(age) FROM singer GROUP BY country HAVING avg(age) > 30 AND count(*) >= 2",
    "SELECT theme FROM concert GROUP BY theme HAVING count(*) = 1",
    # joins
    "SELECT T2.name, T1.concert_name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id",
    "SELECT T2.name, count(*) FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id GROUP BY T1.stadium_id",
    "SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id WHERE T1.year = '2014' ORDER BY T2.capacity DESC",
    "SELECT T2.name, T2.capacity FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id WHERE T1.year > 2013 GROUP BY T2.stadium_id ORDER BY count(*) DESC LIMIT 1",
    "SELECT T3.name, T1.concert_name FROM concert AS T1 JOIN singer_in_concert AS T2 ON T1.concert_id = T2.concert_id JOIN singer AS T3 ON T2.singer_id = T3.singer_id",
    "SELECT T3.name FROM concert AS T1 JOIN singer_in_concert AS T2 ON T1.concert_id = T2.concert_id JOIN singer AS T3 ON T2.singer_id = T3.singer_id WHERE T1.year = 2014",
    "SELECT T1.name, count(*) FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id GROUP BY T1.singer_id",
    "SELECT T1.name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id GROUP BY T1.singer_id HAVING count(*) >= 2",
    "SELECT DISTINCT T1.country FROM singer AS T1 JOIN pets AS T2 ON T1.singer_id = T2.owner_id WHERE T2.pet_type = 'dog'",
    "SELECT T1.name, T2.pet_type FROM singer AS T1 LEFT JOIN pets AS T2 ON T1.singer_id = T2.owner_id",
    "SELECT T1.name, count(T2.pet_id) FROM singer AS T1 LEFT JOIN pets AS T2 ON T1.singer_id = T2.owner_id GROUP BY T1.singer_id",
    "SELECT singer.name, pets.weight FROM singer JOIN pets ON singer.singer_id = pets.owner_id ORDER BY pets.weight",
    "SELECT name, weight FROM singer JOIN pets ON singer_id = owner_id WHERE weight > 10",
    "SELECT T1.name, T2.name FROM singer AS T1 JOIN singer AS T2 ON T1.country = T2.country WHERE T1.singer_id < T2.singer_id",
    "SELECT count(*) FROM singer, stadium",
    "SELECT T1.name, T2.name FROM singer AS T1, stadium AS T2 WHERE T1.singer_id = T2.stadium_id",
    "SELECT T1.concert_name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id AND T2.capacity > 4000",
    "SELECT T2.location, avg(T2.capacity) FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id GROUP BY T2.location",
    "SELECT T1.*, T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id",
    "SELECT max(T2.capacity) FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id WHERE T1.year = '2015'",
    # nested queries
    "SELECT name FROM stadium WHERE stadium_id NOT IN (SELECT stadium_id FROM concert WHERE stadium_id IS NOT NULL)",
    "SELECT name FROM stadium WHERE stadium_id IN (SELECT stadium_id FROM concert WHERE year = '2014')",
    "SELECT name FROM singer WHERE singer_id NOT IN (SELECT singer_id FROM singer_in_concert)",
    "SELECT name FROM singer WHERE singer_id IN (SELECT owner_id FROM pets WHERE weight > 10)",
    "SELECT count(*) FROM singer WHERE singer_id NOT IN (SELECT owner_id FROM pets WHERE owner_id IS NOT NULL)",
    "SELECT name FROM stadium WHERE capacity > (SELECT avg(capacity) FROM stadium)",
    "SELECT name FROM singer WHERE age = (SELECT max(age) FROM singer)",
    "SELECT name FROM singer WHERE age > (SELECT min(age) FROM singer WHERE country = 'France') AND country != 'France'",
    "SELECT name FROM stadium WHERE EXISTS (SELECT * FROM concert WHERE year = '2016')",
    "SELECT name FROM stadium WHERE NOT EXISTS (SELECT * FROM concert WHERE year = '2030')",
    "SELECT count(*) FROM (SELECT country FROM singer GROUP BY country HAVING count(*) > 1)",
    "SELECT avg(total) FROM (SELECT country, count(*) AS total FROM singer GROUP BY country) AS counts",
    "SELECT T1.name FROM singer AS T1 JOIN (SELECT singer_id FROM singer_in_concert GROUP BY singer_id HAVING count(*) > 1) AS T2 ON T1.singer_id = T2.singer_id",
    "SELECT name FROM stadium WHERE capacity = (SELECT max(capacity) FROM stadium WHERE stadium_id IN (SELECT stadium_id FROM concert))",
    # set operations
    "SELECT country FROM singer WHERE age > 40 UNION SELECT country FROM singer WHERE is_male = 'T'",
    "SELECT country FROM singer WHERE age > 40 UNION ALL SELECT country FROM singer WHERE is_male = 'T'",
    "SELECT country FROM singer WHERE age > 40 INTERSECT SELECT country FROM singer WHERE age < 30",
    "SELECT country FROM singer EXCEPT SELECT country FROM singer WHERE age < 30",
    "SELECT name FROM stadium EXCEPT SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id",
    "SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id WHERE T1.year = 2014 INTERSECT SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id WHERE T1.year = 2015",
    "SELECT name FROM singer WHERE country = 'France' UNION SELECT name FROM singer WHERE age > 40 ORDER BY name",
    "SELECT name, age FROM singer WHERE country = 'France' UNION SELECT name, age FROM singer WHERE age IS NULL ORDER BY age DESC LIMIT 3",
    "SELECT pet_type FROM pets WHERE weight > 10 EXCEPT SELECT pet_type FROM pets WHERE age > 5 UNION SELECT 'bird' FROM pets WHERE pet_id = 4",
    "SELECT owner_id FROM pets INTERSECT SELECT singer_id FROM singer_in_concert",
]

COLUMNS = {
    "singer": ["name", "country", "age", "is_male", "net_worth"],
    "stadium": ["name", "location", "capacity", "average"],
    "pets": ["pet_type", "weight", "age", "owner_id"],
}
VALUES = {
    "name": "'Joe Sharp'",
    "country": "'France'",
    "age": "30",
    "is_male": "'T'",
    "net_worth": "7.5",
    "location": "'Peterhead'",
    "capacity": "4000",
    "average": "1200",
    "pet_type": "'dog'",
    "weight": "10",
    "owner_id": "2",
}


def generated_queries() -> list[str]:
    """Filters with every comparison on every column, and each aggregate per group."""
    queries = []
    for table, columns in COLUMNS.items():
        for column, operator in itertools.product(columns, ["=", "!=", ">", "<=", ">="]):
            queries.append(
                f"SELECT {columns[0]} FROM {table} WHERE {column} {operator} {VALUES[column]}"
            )
        numeric = [c for c in columns if not VALUES[c].startswith("'")]
        for column, function in itertools.product(numeric, ["sum", "avg", "min", "max", "count"]):
            queries.append(
                f"SELECT {columns[0]}, {function}({column}) FROM {table} GROUP BY {columns[0]} "
                f"ORDER BY {columns[0]}"
            )
    return queries


QUERIES = HAND_WRITTEN + generated_queries()


def test_there_are_enough_queries() -> None:
    """The issue asks for at least 150 queries of Spider-like shapes."""
    assert len(set(QUERIES)) >= 150


@pytest.mark.parametrize("sql", QUERIES)
def test_pandas_translation_returns_the_rows_sqlite_returns(
    sql: str, concerts_workspace: Workspace
) -> None:
    """The translated program run in the sandbox equals SQLite's result."""
    translation = translate_sql(sql, workspace_boxes(concerts_workspace))
    verification = verify_translation(sql, translation, concerts_workspace)
    assert verification.sql_error is None, verification.sql_error
    assert verification.equal, (
        f"{translation.code}\nsql: {verification.sql_rows}\npandas: "
        f"{verification.pandas_error or verification.pandas_rows}"
    )
