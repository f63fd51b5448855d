"""`run_pandas` over MCP: a program that draws returns its figure as image
content beside the structured rows; one that draws nothing returns no image."""

from __future__ import annotations

import base64

import anyio

from tests.mcp_server.conftest import connect, structured

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_a_drawing_program_returns_its_figure_as_an_image() -> None:
    async def scenario() -> None:
        async with connect("stdio") as client:
            drawn = await client.call_tool(
                "run_pandas",
                {
                    "code": "counts = album.groupby('genre').size()\ncounts.plot.bar()\n"
                    "result = counts",
                    "sources": ["music"],
                },
            )
            rows = structured(drawn)["rows"]
            assert rows and all(isinstance(row[1], int) for row in rows)
            images = [item for item in drawn.content if item.type == "image"]
            assert len(images) == 1 and images[0].mime_type == "image/png"
            assert base64.b64decode(images[0].data).startswith(PNG_SIGNATURE)
            assert drawn.content[0].type == "text" and '"rows"' in drawn.content[0].text

            plain = await client.call_tool(
                "run_pandas", {"code": "result = len(album)", "sources": ["music"]}
            )
            assert structured(plain)["rows"]
            assert [item.type for item in plain.content] == ["text"]

    anyio.run(scenario)
