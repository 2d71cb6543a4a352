"""JSON read from a binary file one value at a time (private).

The large JSON files of the harness logs are decoded one value at a time instead of
whole: HELM's ``per_instance_stats.json`` (one record at a time), ``scenario_state.json``
(one request state at a time) and ``stats.json`` (up to the entry sought), and an Inspect
``.json`` log's header (its members before ``samples``, which are not read). Memory holds
the value being decoded and what the caller keeps of the ones before, whatever the file's
size; the values are those :func:`json.loads` gives (the same decoder).

Example
-------
>>> import io
>>> from scorio_core.io._json_stream import JSONStream
>>> s = JSONStream(io.BytesIO(b'{"eval": {"task": "arith"}, "samples": [1, 2, 3]}'))
>>> for key in s.members():
...     if key == "samples":
...         break  # not read
...     print(key, s.value())
eval {'task': 'arith'}
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from typing import Any, BinaryIO

#: One JSON value read one value at a time -- a request state of HELM's
#: ``scenario_state.json``, a record of its ``per_instance_stats.json``, an entry of its
#: ``stats.json``, a member of an Inspect log's header -- larger than this (characters) ends
#: the reading of the file (not one the harnesses write: a request state's prompt and
#: completions would fill it, and a stat is a few hundred characters)
VALUE_MAX_CHARS = 64 * 2**20
#: Bytes read from a file at a time (more while one value is open: doubling)
CHUNK = 2**16
_SPACE = re.compile(r"\s*")
_DECODE = json.JSONDecoder().raw_decode


class JSONStream:
    """A JSON document read from the binary file ``fh`` a chunk at a time: values are
    decoded one at a time from a buffer that holds the rest of the current value only,
    each at most ``max_chars`` characters (``ValueError`` past it), ``chunk`` bytes read at
    a time (UTF-8; a character cut between two chunks is joined)."""

    def __init__(self, fh: BinaryIO, max_chars: int = VALUE_MAX_CHARS,
                 chunk: int = CHUNK) -> None:
        self.fh, self.buf, self.pos, self.eof = fh, "", 0, False
        self.max_chars, self.chunk = max_chars, chunk
        self.decoder = codecs.getincrementaldecoder("utf-8")()

    def more(self, n: int | None = None) -> bool:
        """Read ``n`` more bytes (default ``chunk``), dropping what was decoded; ``False``
        at the end."""
        if self.eof:
            return False
        raw = self.fh.read(n or self.chunk)
        self.eof = not raw
        self.buf = self.buf[self.pos :] + self.decoder.decode(raw, final=self.eof)
        self.pos = 0
        return not self.eof

    def peek(self) -> str:
        """The next character that is not white space ('' at the end), not consumed."""
        while True:
            self.pos = _SPACE.match(self.buf, self.pos).end()
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self.more():
                return ""

    def take(self, allowed: str) -> str:
        """The next character that is not white space, consumed: one of ``allowed``, else
        ``ValueError``."""
        c = self.peek()
        if not c or c not in allowed:
            raise ValueError(f"expected {' or '.join(map(repr, allowed))}, found "
                             f"{c or 'the end of the file'!r}")
        self.pos += 1
        return c

    def value(self) -> Any:
        """The next JSON value; a value still open at the end of the buffer reads more."""
        self.peek()
        while True:
            try:
                value, end = _DECODE(self.buf, self.pos)
                if end - self.pos > self.max_chars:
                    break
                if end < len(self.buf) or self.eof:  # a number may go on in the next chunk
                    self.pos = end
                    return value
            except json.JSONDecodeError:
                if self.eof:
                    raise
            if len(self.buf) - self.pos > self.max_chars:
                break
            self.more(max(self.chunk, len(self.buf) - self.pos))  # doubling: linear in all
        raise ValueError(f"one value is over {self.max_chars:,} characters "
                         "(scorio_core.io.helm.VALUE_MAX_CHARS)")

    def elements(self) -> Iterator[Any]:
        """The elements of the JSON list that comes next, decoded one at a time."""
        self.take("[")
        if self.peek() == "]":
            self.take("]")
            return
        while True:
            yield self.value()
            if self.take(",]") == "]":
                return

    def members(self) -> Iterator[str]:
        """The member names of the JSON object that comes next, one at a time: after each,
        the caller reads its value (:meth:`value`, :meth:`elements`) before asking for the
        next; a caller that stops reads no further."""
        self.take("{")
        if self.peek() == "}":
            self.take("}")
            return
        while True:
            key = self.value()
            if not isinstance(key, str):
                raise ValueError(f"expected a member name, found {key!r}")
            self.take(":")
            yield key
            if self.take(",}") == "}":
                return

    def end(self) -> None:
        """``ValueError`` unless only white space is left (as :func:`json.loads` requires
        of a whole document)."""
        if c := self.peek():
            raise ValueError(f"extra data after the JSON document (found {c!r})")
