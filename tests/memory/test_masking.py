"""Masking entity names and literal values before embedding."""

from memory.masking import ENTITY, NUMBER, VALUE, mask_question


def test_names_numbers_and_quoted_values_become_placeholders():
    masked = mask_question('Which films did Ridley Scott direct after 1990 in "Los Angeles"?')
    assert masked == f"Which films did {ENTITY} direct after {NUMBER} in {VALUE} ?"


def test_the_first_word_and_lower_case_words_are_kept():
    assert mask_question("How many cities are there?") == "How many cities are there ?"


def test_multi_word_names_with_linking_words_are_one_entity():
    masked = mask_question("How many cities are in the United States of America?")
    assert masked.count(ENTITY) == 1
    assert mask_question("Who directed Blade Runner and Alien?").count(ENTITY) == 2


def test_dates_and_thousands_are_numbers():
    masked = mask_question("Which customers joined on 2018-02-11 with 1,500 points?")
    assert masked.count(NUMBER) == 2
