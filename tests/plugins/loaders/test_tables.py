"""Flat-table loaders on real files written into a temp dir."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from plugins import BadInputError, load_source


def write(path, text: str, encoding: str = "utf-8"):
    path.write_bytes(text.encode(encoding))
    return path


def test_messy_csv_cells_get_numeric_and_date_dtypes(examples):
    frame = load_source(str(examples / "cities.csv")).handle["cities"]
    assert str(frame["Population (2020)"].dtype) == "Int64"  # "13,960,236" and one "n/a"
    assert frame["Population (2020)"].iloc[0] == 13_960_236
    assert pd.isna(frame.loc[frame["City"] == "Lagos", "Population (2020)"].iloc[0])
    assert frame["Area (km²)"].dtype == "float64"  # "1484[a]" and "6,340.5"
    assert frame.loc[frame["City"] == "Delhi", "Area (km²)"].iloc[0] == 1484.0
    assert frame.loc[frame["City"] == "Shanghai", "Area (km²)"].iloc[0] == 6340.5
    assert pd.api.types.is_datetime64_any_dtype(frame["Founded"])
    assert frame["Notes"].iloc[4] == "Built on the ruins of\nTenochtitlan"  # quoted newline
    assert list(frame.columns)[5] == "Mayor's party"  # names kept exactly


def test_backslash_escaped_quotes_in_quoted_cells(tmp_path):
    path = write(tmp_path / "shows.csv", 'year,title\n"2002","Ep: \\"Normal\\", really"\n')
    frame = load_source(str(path)).handle["shows"]
    assert frame["title"].tolist() == ['Ep: "Normal", really']
    assert frame["year"].tolist() == [2002]


def test_mixed_column_stays_text(tmp_path):
    path = write(tmp_path / "mixed.csv", "code,amount\nA1,10\n7,20\n")
    frame = load_source(str(path)).handle["mixed"]
    assert list(frame["code"]) == ["A1", "7"]
    assert frame["amount"].dtype == "int64"


@pytest.mark.parametrize(
    ("content", "delimiter"), [("a;b\n1;2\n", ";"), ("a|b\n1|2\n", "|"), ("a\tb\n1\t2\n", "\t")]
)
def test_delimiter_is_detected(tmp_path, content, delimiter):
    frame = load_source(str(write(tmp_path / "t.csv", content))).handle["t"]
    assert list(frame.columns) == ["a", "b"]
    assert frame.iloc[0].tolist() == [1, 2]


def test_bom_and_latin1_encodings(tmp_path):
    bom = tmp_path / "bom.csv"
    bom.write_bytes(b"\xef\xbb\xbfname,city\nJos\xc3\xa9,M\xc3\xa1laga\n")
    assert list(load_source(str(bom)).handle["bom"].columns) == ["name", "city"]
    latin = write(tmp_path / "latin.csv", "name,city\n" + "José,Málaga\n" * 50, "latin-1")
    frame = load_source(str(latin)).handle["latin"]
    assert frame["city"].iloc[0] == "Málaga"


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        ("city,country\nSão Paulo,Brasil\n", "latin-1"),  # one byte to go by
        ("Stadt,Land\nZürich,Schweiz\nGröße,Köln\n", "cp1252"),
        ("город,страна\nМосква,Россия\n", "cp1251"),
        ("都市,国\n東京,日本\n", "shift_jis"),
    ],
)
def test_a_small_file_that_is_not_utf8_decodes_right_with_a_warning(
    tmp_path, capsys, text, encoding
):
    path = write(tmp_path / "towns.csv", text, encoding)
    frame = load_source(str(path)).handle["towns"]
    header, *rows = text.splitlines()
    assert list(frame.columns) == header.split(",")
    assert frame.values.tolist() == [row.split(",") for row in rows]
    warning = capsys.readouterr().err
    assert warning.startswith(f"pandora: warning: {path}: not UTF-8; read as ")
    assert "save the file as UTF-8" in warning and len(warning.splitlines()) == 1


def test_a_utf8_file_gets_no_encoding_warning(tmp_path, capsys):
    load_source(str(write(tmp_path / "towns.csv", "city\nSão Paulo\n")))
    assert capsys.readouterr().err == ""


def test_keyword_space_and_unicode_column_names_are_kept(tmp_path):
    path = write(tmp_path / "2019 sales-report.csv", "class,unit price,größe\nx,1.5,3\n")
    source = load_source(str(path))
    assert source.name == "t_2019_sales_report"
    assert list(source.handle[source.name].columns) == ["class", "unit price", "größe"]


def test_duplicate_and_empty_column_names_are_renamed_with_a_warning(tmp_path, capsys):
    path = write(tmp_path / "dup.csv", "a,a,,b\n1,2,3,4\n")
    frame = load_source(str(path)).handle["dup"]
    assert list(frame.columns) == ["a", "a_2", "column_3", "b"]
    warnings = capsys.readouterr().err
    assert "column 2 has a repeated name" in warnings and "column 3 has an empty name" in warnings


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("empty.csv", "", "file is empty"),
        ("header.csv", "a,b\n", "has a header but no data rows"),
        ("bad.csv", 'a,b\n1,2\n3,4,5,6\n"x', "malformed CSV"),
        ("long_rows.csv", "a,b\n1,2,3\n4,5,6\n", "rows have more cells than the header"),
        ("fake.csv", "SQLite format 3\x00rest", "looks like a SQLite database"),
        ("binary.csv", "a,b\x00\x01\x02", "binary data"),
        ("fake.parquet", "a,b\n1,2\n", "not a Parquet file"),
        ("fake.xlsx", "a,b\n1,2\n", "not an Excel workbook"),
        ("bad.json", "{not json", "invalid JSON"),
        ("scalar.json", "[1, 2]", "expected records"),
    ],
)
def test_bad_files_get_one_line_errors_naming_the_file(tmp_path, name, content, message):
    path = write(tmp_path / name, content)
    before = path.read_bytes()
    with pytest.raises(BadInputError) as raised:
        load_source(str(path))
    assert message in str(raised.value) and str(path) in str(raised.value)
    assert "\n" not in str(raised.value)
    assert path.read_bytes() == before


def test_missing_file_and_unknown_extension(tmp_path):
    with pytest.raises(BadInputError, match="no such file"):
        load_source(str(tmp_path / "nope.csv"))
    with pytest.raises(BadInputError, match=r"unknown file extension '\.xyz'"):
        load_source(str(write(tmp_path / "data.xyz", "a\n1\n")))


def test_excel_every_sheet_is_a_table(tmp_path):
    path = tmp_path / "book.xlsx"
    with pd.ExcelWriter(path) as writer:
        people = pd.DataFrame({"id": [1, 2], "name": ["x", "y"]})
        people.to_excel(writer, sheet_name="People", index=False)
        totals = pd.DataFrame({"id": [1], "total": ["1,000"]})
        totals.to_excel(writer, sheet_name="Order Totals", index=False)
    source = load_source(str(path))
    assert sorted(source.handle) == ["Order_Totals", "People"]
    assert source.handle["Order_Totals"]["total"].iloc[0] == 1000


def test_parquet_and_json_records(tmp_path):
    frame = pd.DataFrame({"x": [1, 2], "when": pd.to_datetime(["2020-01-01", "2021-05-02"])})
    frame.to_parquet(tmp_path / "p.parquet")
    loaded = load_source(str(tmp_path / "p.parquet")).handle["p"]
    pd.testing.assert_frame_equal(loaded, frame)
    (tmp_path / "r.json").write_text(json.dumps({"data": [{"a": 1, "b": {"c": "x"}}]}))
    assert list(load_source(str(tmp_path / "r.json")).handle["r"].columns) == ["a", "b.c"]
    (tmp_path / "l.jsonl").write_text('{"a": 1}\n\n{"a": 2}\n')
    assert load_source(str(tmp_path / "l.jsonl")).handle["l"]["a"].tolist() == [1, 2]


def test_name_overrides_source_and_box_name(tmp_path):
    path = write(tmp_path / "t.csv", "a\n1\n")
    source = load_source(str(path), name="orders")
    assert source.name == "orders" and list(source.handle) == ["orders"]
