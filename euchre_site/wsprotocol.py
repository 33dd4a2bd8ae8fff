"""uvicorn's websocket protocol with a compression window that holds the last board sent.

Every move pushes each viewer a whole board (about 7 KB of HTML, up to 13 KB in Burmese).
Consecutive boards of one socket differ in a few places, and permessage-deflate keeps its
window from one message to the next: with a window larger than a board, the next board is
sent as little more than what changed. uvicorn's own protocol asks for a 4 KB window
(``server_max_window_bits=12``), smaller than a board, so each board went out as about 2 KB.
With 16 KB (14 bits) a board goes out as about 0.3 KB, and deflating it takes half the CPU
(``bench/boards.py --deflate``, docs/PERFORMANCE.md). The price is memory: about 80 KB of
compressor per open socket instead of about 32 KB (zlib's ``2**(bits + 2) + 2**(memLevel + 9)``).

docs/OPERATING.md starts uvicorn with ``--ws euchre_site.wsprotocol:WebSockets``.
The frames a browser sends (a move, a few dozen bytes) keep uvicorn's 4 KB window.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

SERVER_WINDOW_BITS = 14  # 16 KB: the largest board (Burmese, 13 KB) and some
CLIENT_WINDOW_BITS = 12  # uvicorn's: what the browser sends is small
MEMORY_LEVEL = 5  # uvicorn's: zlib's hash table of 16 KB


def deflate() -> ServerPerMessageDeflateFactory:
    """The permessage-deflate this site offers, as its server protocol negotiates it."""
    return ServerPerMessageDeflateFactory(
        server_max_window_bits=SERVER_WINDOW_BITS,
        client_max_window_bits=CLIENT_WINDOW_BITS,
        compress_settings={"memLevel": MEMORY_LEVEL},
    )


class WebSockets(WebSocketsSansIOProtocol):
    """uvicorn's protocol (``websockets-sansio``, its default), with ``deflate()`` when
    compression is on (``--ws-per-message-deflate``, on by default)."""

    def __init__(self, config, *args, **kwargs) -> None:
        super().__init__(config, *args, **kwargs)
        if config.ws_per_message_deflate:
            self.conn = ServerProtocol(
                extensions=[deflate()], max_size=config.ws_max_size, logger=self.logger
            )
