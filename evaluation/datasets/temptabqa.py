"""TempTabQA-C (Gupta et al., 2025): temporal questions over athletes' medal tables,
each asked of the original table and of a counterfactual copy.

Get it from https://github.com/CoRAL-ASU/TEMPTABQA-C (MIT). `Original.tsv` and
`CounterFactual.tsv` have the fields `Questions`, `Answers`, `Context` (the
athlete's infobox as text) and `Types` (the question template). The paper
answers with SQL over a relational schema of the infobox, so each context
is parsed once into a SQLite database under `cache`:

    Athlete(athlete_id, name, country)
    PersonalInformation(athlete_id, birth_date, birth_year, birth_place, height, weight, coach)
        -- one row per athlete: athlete_id is its key
    Tournament(tournament_id, athlete_id, name)
    Format(format_id, tournament_id, name)
    Medal(medal_id, format_id, type, year, location)     -- type: Gold, Silver, Bronze

An infobox is: the athlete's name; `Personal Information` followed by
key and value lines; `Country Representing: XXX`; then per tournament its
name and one line per format, `format<TAB>MedalGold | 2016 | Rio, ...`.

`MedalGold` is the name of the infobox's medal icon; a reader of the
infobox sees a gold medal, and the questions say "gold medal", so the
table says `Gold`. (The benchmark's own gold SQL keeps `'MedalGold'`;
docs/evaluation.md says which runs read which.)
"""

from __future__ import annotations

import csv
import hashlib
import re
import sqlite3
import sys
from dataclasses import dataclass, field
from pathlib import Path

from evaluation.datasets.example import Example
from plugins.errors import BadInputError

DATABASE_LAYOUT = "2"
"""Part of each cached database's name: changed whenever what `write_database`
writes changes (2: medal types as `Gold`, PersonalInformation keyed by
athlete), so that no run reads a database of another layout."""
VARIANT_FILES = {"original": "Original.tsv", "counterfactual": "CounterFactual.tsv"}
MEDAL = re.compile(r"Medal(\w+)\s*\|\s*(\d{4})\s*\|\s*([^,]*)")
SCHEMA = """
CREATE TABLE Athlete (athlete_id INTEGER PRIMARY KEY, name TEXT, country TEXT);
CREATE TABLE PersonalInformation (
    athlete_id INTEGER PRIMARY KEY REFERENCES Athlete(athlete_id), birth_date TEXT,
    birth_year INTEGER,
    birth_place TEXT, height TEXT, weight TEXT, coach TEXT
);
CREATE TABLE Tournament (
    tournament_id INTEGER PRIMARY KEY, athlete_id INTEGER REFERENCES Athlete(athlete_id), name TEXT
);
CREATE TABLE Format (
    format_id INTEGER PRIMARY KEY, tournament_id INTEGER REFERENCES Tournament(tournament_id),
    name TEXT
);
CREATE TABLE Medal (
    medal_id INTEGER PRIMARY KEY, format_id INTEGER REFERENCES Format(format_id), type TEXT,
    year INTEGER, location TEXT
);
"""
PERSONAL_FIELDS = {
    "birth date": "birth_date",
    "birth place": "birth_place",
    "height": "height",
    "weight": "weight",
    "coach": "coach",
}


@dataclass
class Infobox:
    """An athlete's infobox, parsed."""

    name: str = ""
    country: str = ""
    personal: dict[str, str] = field(default_factory=dict)
    tournaments: list[tuple[str, list[tuple[str, list[tuple[str, int, str]]]]]] = field(
        default_factory=list
    )


def parse_infobox(context: str) -> Infobox:
    """The athlete, personal details and medals of a TempTabQA-C context."""
    infobox = Infobox()
    key: str | None = None
    in_personal = False
    for raw_line in context.splitlines():
        line = raw_line.strip()
        if not line:
            continue
        if not infobox.name:
            infobox.name = line
        elif line == "Personal Information":
            in_personal = True
        elif line.startswith("Country Representing:"):
            infobox.country = line.split(":", 1)[1].strip()
            in_personal = False
        elif "\t" in raw_line and MEDAL.search(raw_line):
            in_personal = False
            format_name, _, medals = raw_line.partition("\t")
            if not infobox.tournaments:
                infobox.tournaments.append(("", []))
            parsed = [(t, int(y), place.strip()) for t, y, place in MEDAL.findall(medals)]
            infobox.tournaments[-1][1].append((format_name.strip(), parsed))
        elif in_personal:
            if "\t" in raw_line and key is not None:
                infobox.personal[key] = line
                key = None
            else:
                key = PERSONAL_FIELDS.get(line.lower())
        else:
            infobox.tournaments.append((line, []))
    return infobox


def write_database(infobox: Infobox, path: Path) -> Path:
    """The infobox as a SQLite database at `path` (written once)."""
    if path.exists():
        return path
    temporary = path.with_suffix(".partial")
    temporary.unlink(missing_ok=True)
    connection = sqlite3.connect(temporary)
    with connection:
        connection.executescript(SCHEMA)
        connection.execute("INSERT INTO Athlete VALUES (1, ?, ?)", (infobox.name, infobox.country))
        birth_date = infobox.personal.get("birth_date")
        birth_year = int(birth_date[:4]) if birth_date and birth_date[:4].isdigit() else None
        connection.execute(
            "INSERT INTO PersonalInformation VALUES (1, ?, ?, ?, ?, ?, ?)",
            (
                birth_date,
                birth_year,
                *(infobox.personal.get(f) for f in ("birth_place", "height", "weight", "coach")),
            ),
        )
        format_id = medal_id = 0
        for tournament_id, (tournament, formats) in enumerate(infobox.tournaments, start=1):
            connection.execute(
                "INSERT INTO Tournament VALUES (?, 1, ?)", (tournament_id, tournament)
            )
            for format_name, medals in formats:
                format_id += 1
                connection.execute(
                    "INSERT INTO Format VALUES (?, ?, ?)", (format_id, tournament_id, format_name)
                )
                for medal_type, year, location in medals:
                    medal_id += 1
                    connection.execute(
                        "INSERT INTO Medal VALUES (?, ?, ?, ?, ?)",
                        (medal_id, format_id, medal_type, year, location),
                    )
    connection.close()
    temporary.replace(path)
    return path


def read_temptabqa(
    directory: Path, cache: Path, variants: tuple[str, ...] = ("original", "counterfactual")
) -> list[Example]:
    """The questions of each variant, each over the database of its context."""
    csv.field_size_limit(sys.maxsize)
    cache.mkdir(parents=True, exist_ok=True)
    examples = []
    for variant in variants:
        path = directory / VARIANT_FILES[variant]
        if not path.is_file():
            raise BadInputError(f"{path}: no such file (is {directory} TempTabQA-C?)")
        with open(path, encoding="utf-8", newline="") as handle:
            for position, row in enumerate(csv.DictReader(handle, delimiter="\t")):
                context = row["Context"]
                digest = hashlib.sha256(context.encode("utf-8")).hexdigest()[:16]
                name = f"{digest}-layout{DATABASE_LAYOUT}.sqlite"
                infobox = parse_infobox(context)
                database = write_database(infobox, cache / name)
                examples.append(
                    Example(
                        id=f"{variant}-{position}",
                        task="temptabqa",
                        question=" ".join(row["Questions"].split()),
                        sources=[str(database)],
                        database=infobox.name or digest,
                        gold_answer=[[row["Answers"].strip()]],
                        variant=variant,
                        metadata={"template": row.get("Types", "")},
                    )
                )
    return examples
