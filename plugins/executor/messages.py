"""Messages between the caller and a template process: length-prefixed JSON
over a UNIX stream socket, with file descriptors passed alongside (SCM_RIGHTS).

Never pickle: the template holds the workspace but never runs untrusted
code, and JSON keeps it that way (no object is ever rebuilt from a message).
"""

from __future__ import annotations

import array
import json
import os
import select
import socket
import struct
import time
from typing import Any

HEADER = struct.Struct("!I")
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
MAX_DESCRIPTORS = 4


class ChannelClosed(Exception):
    """The other end closed the socket, or did not answer in time."""


def send_message(
    channel: socket.socket, message: dict[str, Any], fds: tuple[int, ...] = ()
) -> None:
    """Send one JSON object, and `fds` with its first byte."""
    body = json.dumps(message).encode()
    data = HEADER.pack(len(body)) + body
    try:
        sent = channel.sendmsg(
            [data],
            [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))] if fds else [],
        )
        channel.sendall(data[sent:])
    except OSError as error:
        raise ChannelClosed(f"cannot send: {error}") from None


def receive_message(
    channel: socket.socket, deadline: float | None = None
) -> tuple[dict[str, Any], list[int]]:
    """The next JSON object and the descriptors that came with it; raises
    ChannelClosed on end of file or when `deadline` (time.monotonic) passes."""
    header, fds = _receive_exactly(channel, HEADER.size, deadline, with_descriptors=True)
    (length,) = HEADER.unpack(header)
    if length > MAX_MESSAGE_BYTES:
        raise ChannelClosed(f"a message of {length} bytes is larger than allowed")
    body, _ = _receive_exactly(channel, length, deadline, with_descriptors=False)
    return json.loads(body), fds


def _receive_exactly(
    channel: socket.socket, size: int, deadline: float | None, with_descriptors: bool
) -> tuple[bytes, list[int]]:
    chunks: list[bytes] = []
    fds: list[int] = []
    remaining = size
    while remaining:
        _wait_readable(channel, deadline)
        try:
            if with_descriptors and not chunks:
                chunk, received = _receive_with_descriptors(channel, remaining)
                fds.extend(received)
            else:
                chunk = channel.recv(remaining)
        except OSError as error:  # a peer that died with unread input resets the channel
            raise ChannelClosed(f"cannot receive: {error}") from None
        if not chunk:
            raise ChannelClosed("the other end closed the channel")
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks), fds


def _receive_with_descriptors(channel: socket.socket, size: int) -> tuple[bytes, list[int]]:
    space = socket.CMSG_SPACE(MAX_DESCRIPTORS * array.array("i").itemsize)
    chunk, ancillary, _, _ = channel.recvmsg(size, space)
    fds: list[int] = []
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            received = array.array("i")
            received.frombytes(payload[: len(payload) - len(payload) % received.itemsize])
            for descriptor in received:
                os.set_inheritable(descriptor, False)
            fds.extend(received)
    return chunk, fds


def _wait_readable(channel: socket.socket, deadline: float | None) -> None:
    if deadline is None:
        return
    timeout = deadline - time.monotonic()
    # poll, not select: a process with a thousand descriptors open (a long-lived
    # server, a test worker) gets numbers past select's limit of 1024
    waiting = select.poll()
    waiting.register(channel, select.POLLIN)
    if timeout <= 0 or not waiting.poll(timeout * 1000):
        raise ChannelClosed("no answer in time")
