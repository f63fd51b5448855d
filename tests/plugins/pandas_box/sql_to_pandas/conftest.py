"""A small Spider-like SQLite database written for the translator tests.

Its data has what trips naive translations: NULLs in filtered, grouped and
sorted columns, a year stored as text, numbers with fractions, duplicate
names, a singer in no concert, a stadium with no concert, mixed-case names.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from plugins import Workspace, load_source

SCHEMA = """
CREATE TABLE stadium (
    stadium_id INTEGER PRIMARY KEY, name TEXT, location TEXT, capacity INTEGER, average REAL
);
CREATE TABLE singer (
    singer_id INTEGER PRIMARY KEY, name TEXT, country TEXT, age INTEGER,
    is_male TEXT, song_name TEXT, net_worth REAL
);
CREATE TABLE concert (
    concert_id INTEGER PRIMARY KEY, concert_name TEXT, theme TEXT, stadium_id INTEGER,
    year TEXT, FOREIGN KEY (stadium_id) REFERENCES stadium(stadium_id)
);
CREATE TABLE singer_in_concert (
    concert_id INTEGER, singer_id INTEGER,
    FOREIGN KEY (concert_id) REFERENCES concert(concert_id),
    FOREIGN KEY (singer_id) REFERENCES singer(singer_id)
);
CREATE TABLE pets (
    pet_id INTEGER PRIMARY KEY, owner_id INTEGER, pet_type TEXT, weight REAL, age INTEGER,
    FOREIGN KEY (owner_id) REFERENCES singer(singer_id)
);
"""

STADIUMS = [
    (1, "Stark's Park", "Raith Rovers", 10104, 2106.5),
    (2, "Somerset Park", "Ayr United", 11998, 1477.0),
    (3, "Glebe Park", "Brechin City", 3960, 1057.25),
    (4, "Recreation Park", "Alloa Athletic", 3100, 1009.0),
    (5, "Balmoor", "Peterhead", 4000, None),
    (6, "Gayfield Park", "Arbroath", 4125, 1204.75),
]
SINGERS = [
    (1, "Joe Sharp", "Netherlands", 52, "F", "You", 30.5),
    (2, "Timbaland", "United States", 32, "T", "Dangerous", 9.0),
    (3, "Justin Brown", "France", 29, "T", "Hey Oh", None),
    (4, "Rose White", "France", 41, "F", "Sun", 12.25),
    (5, "John Nizinik", "France", 43, "T", "Gentleman", 7.5),
    (6, "Tribal King", "France", 25, "T", "Love", 2.0),
    (7, "anna lee", None, 37, "F", "sunny day", 5.0),
    (8, "Joe Sharp", "United States", None, "T", None, 1.0),
]
CONCERTS = [
    (1, "Auditions", "Free choice", 1, "2014"),
    (2, "Super bootcamp", "Free choice 2", 2, "2014"),
    (3, "Home Visits", "Bleeding Love", 2, "2015"),
    (4, "Week 1", "Wide Awake", 6, "2014"),
    (5, "Week 1", "Happy Tonight", 4, "2015"),
    (6, "Week 2", "Party All Night", 6, "2015"),
    (7, "Finale", None, None, "2016"),
]
SINGERS_IN_CONCERTS = [
    (1, 2),
    (1, 3),
    (1, 5),
    (2, 3),
    (2, 6),
    (3, 5),
    (4, 4),
    (5, 6),
    (5, 3),
    (6, 2),
    (7, 7),
]
PETS = [
    (1, 1, "cat", 12.0, 3),
    (2, 2, "dog", 13.4, 2),
    (3, 2, "dog", 9.3, 1),
    (4, None, "bird", 0.2, 5),
    (5, 4, "Cat", 4.5, None),
    (6, 6, "dog", 20.1, 7),
]


def write_concerts_database(path: Path) -> Path:
    """Create the database at `path` and return the path."""
    connection = sqlite3.connect(path)
    with connection:
        connection.executescript(SCHEMA)
        connection.executemany("INSERT INTO stadium VALUES (?, ?, ?, ?, ?)", STADIUMS)
        connection.executemany("INSERT INTO singer VALUES (?, ?, ?, ?, ?, ?, ?)", SINGERS)
        connection.executemany("INSERT INTO concert VALUES (?, ?, ?, ?, ?)", CONCERTS)
        connection.executemany("INSERT INTO singer_in_concert VALUES (?, ?)", SINGERS_IN_CONCERTS)
        connection.executemany("INSERT INTO pets VALUES (?, ?, ?, ?, ?)", PETS)
    connection.close()
    return path


@pytest.fixture(scope="module")
def concerts_workspace(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    """The concerts database loaded once per test module (executor workers are reused)."""
    path = write_concerts_database(tmp_path_factory.mktemp("concerts") / "concerts.sqlite")
    return Workspace.of([load_source(str(path))])
