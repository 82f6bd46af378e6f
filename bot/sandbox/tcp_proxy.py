"""A TCP proxy on 127.0.0.1 that can cut what passes through it: the database "going down"
for a fault test or the load bench, without stopping a server that other work shares."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit, urlunsplit


class TcpProxy:
    """`await start()` → the port to connect to; `cut()` closes every connection and refuses new
    ones until `restore()`."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.up = True
        self._server: asyncio.AbstractServer | None = None
        self._open: set[asyncio.StreamWriter] = set()
        self.port = 0

    @classmethod
    def for_dsn(cls, dsn: str) -> TcpProxy:
        parts = urlsplit(dsn)
        return cls(parts.hostname or "127.0.0.1", parts.port or 5432)

    def dsn_through(self, dsn: str) -> str:
        """`dsn` with its host and port replaced by this proxy's."""
        parts = urlsplit(dsn)
        user = f"{parts.username}@" if parts.username else ""
        return urlunsplit(parts._replace(netloc=f"{user}127.0.0.1:{self.port}"))

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.up:
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self._open.update((writer, up_writer))

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                dst.close()
                self._open.discard(dst)

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def cut(self) -> None:
        self.up = False
        for writer in list(self._open):
            writer.close()
        self._open.clear()

    def restore(self) -> None:
        self.up = True

    async def stop(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def __aenter__(self) -> TcpProxy:
        await self.start()
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.stop()
