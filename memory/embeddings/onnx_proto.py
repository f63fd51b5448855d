"""Just enough of the ONNX protobuf format to hand a graph to onnxruntime.

onnxruntime (installed with ChromaDB) loads a model from serialised
`ModelProto` bytes, but the `onnx` package that builds them is not a
dependency; the handful of messages the e5 encoder needs are written here
with protobuf's wire format (varints and length-delimited fields), using
the field numbers of `onnx/onnx.proto`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

IR_VERSION = 8
ELEMENT_TYPES = {np.dtype(np.float32): 1, np.dtype(np.uint8): 2, np.dtype(np.int64): 7}
ATTRIBUTE_FLOAT, ATTRIBUTE_INT, ATTRIBUTE_INTS = 1, 2, 7


def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1  # negative int64 values are written as 10-byte two's complement
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _integer(field: int, value: int) -> bytes:
    return _varint(field << 3) + _varint(value)


def _bytes(field: int, payload: bytes) -> bytes:
    return _varint(field << 3 | 2) + _varint(len(payload)) + payload


def _text(field: int, value: str) -> bytes:
    return _bytes(field, value.encode())


def attribute(name: str, value: int | float | tuple[int, ...]) -> bytes:
    """An `AttributeProto` holding one int64, one float or a tuple of int64."""
    if isinstance(value, tuple):
        items = b"".join(_integer(8, item) for item in value)
        return _text(1, name) + _integer(20, ATTRIBUTE_INTS) + items
    if isinstance(value, int):
        return _text(1, name) + _integer(20, ATTRIBUTE_INT) + _integer(3, value)
    encoded = np.float32(value).tobytes()
    return _text(1, name) + _integer(20, ATTRIBUTE_FLOAT) + _varint(2 << 3 | 5) + encoded


def node(
    op_type: str,
    inputs: Sequence[str],
    outputs: Sequence[str],
    attributes: Sequence[bytes] = (),
    domain: str = "",
) -> bytes:
    """A `NodeProto`: one operator applied to named values."""
    payload = b"".join(_text(1, name) for name in inputs)
    payload += b"".join(_text(2, name) for name in outputs)
    payload += _text(4, op_type) + b"".join(_bytes(5, item) for item in attributes)
    return payload + (_text(7, domain) if domain else b"")


def tensor(name: str, array: np.ndarray) -> bytes:
    """A `TensorProto` initializer holding `array`'s bytes."""
    payload = b"".join(_integer(1, size) for size in array.shape)
    payload += _integer(2, ELEMENT_TYPES[array.dtype]) + _text(8, name)
    return payload + _bytes(9, np.ascontiguousarray(array).tobytes())


def value(name: str, shape: Sequence[int | str], dtype: type = np.float32) -> bytes:
    """A `ValueInfoProto`: a graph input or output, a str dimension being symbolic."""
    dimensions = b"".join(
        _bytes(1, _text(2, size) if isinstance(size, str) else _integer(1, size)) for size in shape
    )
    tensor_type = _integer(1, ELEMENT_TYPES[np.dtype(dtype)]) + _bytes(2, dimensions)
    return _text(1, name) + _bytes(2, _bytes(1, tensor_type))


def model(
    nodes: Sequence[bytes],
    initializers: Sequence[bytes],
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    opsets: dict[str, int],
) -> bytes:
    """A serialised `ModelProto` of one graph, for `onnxruntime.InferenceSession`
    (joined once: the initializers hold every weight)."""
    graph = b"".join(
        [
            *(_bytes(1, item) for item in nodes),
            _text(2, "graph"),
            *(_bytes(5, item) for item in initializers),
            *(_bytes(11, item) for item in inputs),
            *(_bytes(12, item) for item in outputs),
        ]
    )
    imports = (
        _bytes(8, _text(1, domain) + _integer(2, version)) for domain, version in opsets.items()
    )
    header = _integer(1, IR_VERSION) + _varint(7 << 3 | 2) + _varint(len(graph))
    return b"".join([header, graph, *imports])
