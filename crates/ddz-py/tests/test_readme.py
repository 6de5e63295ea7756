"""The README's Python examples run as written."""

import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[3] / "README.md"


def python_blocks():
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def test_readme_examples_run():
    blocks = python_blocks()
    assert len(blocks) == 3
    quick = {}
    exec(compile(blocks[0], "README quick tour", "exec"), quick)
    assert quick["env"].history() and quick["twin"] is not quick["env"]
    loop = {}
    exec(compile(blocks[1], "README training loop", "exec"), loop)
    w = loop["w"]
    assert w.shape == (3, 430 + 54) and (w != 0).any(), "the loop learned something"
    arena = {}
    exec(compile(blocks[2], "README arena", "exec"), arena)
    assert arena["whole"]["shard"] == {"index": 0, "count": 1}
