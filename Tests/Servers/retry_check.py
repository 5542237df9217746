"""Checks that nginx's start survives a lost port race (run by check.sh; about 2 s).

The first launch's last TLS port is taken before nginx starts, as another process could take it
between `free_ports` and nginx's bind. nginx binds its Unix socket first and leaves the file
behind when it exits; the supervisor's retry must still start it, on new ports.
"""

import asyncio
import os
import shutil
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import certificates  # noqa: E402
import supervisor  # noqa: E402

launches = 0
taken: list[socket.socket] = []
real_free_ports = supervisor.free_ports


def free_ports_losing_the_first_race(count: int) -> list[int]:
    global launches
    ports = real_free_ports(count)
    launches += 1
    if launches == 1:
        s = socket.socket()
        s.bind(("127.0.0.1", ports[-1]))
        s.listen()
        taken.append(s)
    return ports


async def main() -> int:
    supervisor.free_ports = free_ports_losing_the_first_race
    sup = supervisor.Supervisor()
    try:
        certs = certificates.generate(os.path.join(sup.directory, "certs"))
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        plain, *_ = await sup.start_nginx(nginx, certs, time.monotonic() + 60)
        ok = launches == 2 and supervisor.http_ok(f"http://127.0.0.1:{plain}/small")
        print(f"{'ok  ' if ok else 'FAIL'} nginx started after a lost port race: {launches} launches")
        return 0 if ok else 1
    except supervisor.SetupError as error:
        print(f"FAIL nginx did not start after a lost port race: {error}")
        return 1
    finally:
        sup.stop()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
