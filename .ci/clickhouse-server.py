"""A ClickHouse server for CI and for developers, from PyPI's chdb-core wheel (no Docker, no apt).

chdb-core carries a whole ClickHouse build. Its command-line entry runs clickhouse-local, which can open the
server's HTTP and native listeners (`SYSTEM START LISTEN`, ClickHouse 26.7+); the listeners live as long as the
clickhouse-local invocation does, so the last statement is a query that never ends. Listen address and ports come
from ./config.xml in the working directory (clickhouse-local reads it; `.ci/clickhouse.sh` writes it).

    cd WORKDIR && python clickhouse-server.py DATA_DIR

Stopped with SIGTERM.
"""

import sys

import chdb._chdb as engine  # the wheel's native module: clickhouse-local's command line


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: clickhouse-server.py DATA_DIR", file=sys.stderr)
        return 2
    # SIGTERM keeps its default action (end the process at once): a Python handler would only run once the
    # engine call returned, which it never does. Parts are written atomically, so nothing stored is lost.
    # The second argument is the default output format of the HTTP interface too: TabSeparated, as on a server.
    result = engine.query(
        "SYSTEM START LISTEN HTTP; SYSTEM START LISTEN TCP; "
        "SELECT sleepEachRow(1) FROM numbers(1000000000000) FORMAT Null "
        "SETTINGS max_block_size = 1, max_execution_time = 0",
        "TabSeparated",
        path=sys.argv[1],
    )
    print(f"clickhouse-local returned: {result}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
