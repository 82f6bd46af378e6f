"""A TCP proxy on 127.0.0.1 that can cut what passes through it: the database "going down"
for a fault test or the load bench, without stopping a server that other work shares.

The server behind it may listen on TCP or on a Unix socket only (the embedded PostgreSQL: its URL
names the socket's folder as `?host=/dir`); the proxy's own side is always loopback TCP."""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

# libpq's default port: also the number in a Unix socket's file name (`.s.PGSQL.5432`)
DEFAULT_PG_PORT = 5432


class TcpProxy:
    """`await start()` → the port to connect to; `cut()` closes every connection and refuses new
    ones until `restore()`."""

    def __init__(self, host: str, port: int, unix_socket: str | None = None) -> None:
        self.target = (host, port)
        self.unix_socket = unix_socket
        self.up = True
        self._server: asyncio.AbstractServer | None = None
        self._open: set[asyncio.StreamWriter] = set()
        self.port = 0

    @classmethod
    def for_dsn(cls, dsn: str) -> TcpProxy:
        """A proxy to the server `dsn` names. A URL without a host is refused rather than guessed:
        127.0.0.1:5432 may be an unrelated server, or nothing."""
        parts = urlsplit(dsn)
        port = parts.port or DEFAULT_PG_PORT
        socket_dir = dict(parse_qsl(parts.query)).get("host", "")
        if socket_dir.startswith("/"):
            return cls("", port, unix_socket=f"{socket_dir}/.s.PGSQL.{port}")
        if not parts.hostname:
            raise ValueError(f"{dsn!r} names no host or socket folder to proxy to")
        return cls(parts.hostname, port)

    def dsn_through(self, dsn: str) -> str:
        """`dsn` with its host and port replaced by this proxy's (and a socket folder dropped)."""
        parts = urlsplit(dsn)
        user = f"{parts.username}@" if parts.username else ""
        query = urlencode([(k, v) for k, v in parse_qsl(parts.query) if k != "host"])
        return urlunsplit(parts._replace(netloc=f"{user}127.0.0.1:{self.port}", query=query))

    async def _connect_upstream(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self.unix_socket is not None:
            return await asyncio.open_unix_connection(self.unix_socket)
        return await asyncio.open_connection(*self.target)

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.up:
            writer.close()
            return
        try:
            up_reader, up_writer = await self._connect_upstream()
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
