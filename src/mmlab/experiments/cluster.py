"""Playing a study's chunks on a Dask distributed cluster through its futures interface.

The coordinator (the process that called ``run_study``) submits the chunks and alone writes the
store; workers only play.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from mmlab.errors import BadArgument
from mmlab.experiments.chunk import Chunk, PlayedChunk, play_chunk

CONNECT_TIMEOUT = "10s"  # how long to try reaching the scheduler


def on_dask(chunks: list[Chunk], scheduler: str,
            setup: Callable[[], None]) -> Iterator[PlayedChunk]:
    """Finished chunks in the order the cluster finishes them; ``setup`` runs once on every worker."""
    try:
        from distributed import Client, as_completed as dask_completed
    except ImportError:  # pragma: no cover - distributed is a dependency
        raise BadArgument("running on a Dask cluster needs the 'distributed' package") from None
    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as e:
        raise BadArgument(f"cannot reach a Dask scheduler at {scheduler!r}: {e}") from None
    try:
        client.run(setup)
        futures = client.map(play_chunk, chunks, pure=False)
        try:
            for future in dask_completed(futures):
                yield future.result()
        except BaseException:
            client.cancel(futures)
            raise
    finally:
        client.close()
