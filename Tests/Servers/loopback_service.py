"""What the in-process servers (fault server, proxy) share: loopback listeners, a log, clean stop."""

from __future__ import annotations

import asyncio


class LoopbackService:
    """Listens on 127.0.0.1 ports; `stop()` closes them, cancels live connections, closes the log."""

    def __init__(self, log_path: str):
        self._log = open(log_path, "a", buffering=1)
        self._servers: list[asyncio.base_events.Server] = []
        self._connections: set[asyncio.Task] = set()

    async def listen(self, handle, **options) -> int:
        """Serves `handle(reader, writer)` on a new ephemeral port and returns the port."""

        async def tracked(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            task = asyncio.current_task()
            self._connections.add(task)
            try:
                await handle(reader, writer)
            except asyncio.CancelledError:
                pass
            finally:
                self._connections.discard(task)
                if not writer.is_closing():
                    writer.close()

        server = await asyncio.start_server(tracked, "127.0.0.1", 0, **options)
        self._servers.append(server)
        return server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        for server in self._servers:
            server.close()
        for task in list(self._connections):
            task.cancel()
        self._log.close()
