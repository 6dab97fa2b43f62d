"""Digest prompts (rumination-digest-proposal.zh): cross-pollination, thread convergence and
the review of forgotten entries.

Each prompt is the proposal's L2 injection (the text its code adds to the reflect prompt),
verbatim, with the proposal's L1 guidance for that mechanism, verbatim and in Chinese, as
the system prompt. English glosses are in the comments.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from pydantic import Field

from graphmind.llm.base import Prompt
from graphmind.prompts._models import MemoryItem, PromptModel, format_memories
from graphmind.text import STOPWORDS

# Gloss: "Reflect: Cross-Pollination Digest. When reflecting, cross-pollinate once: 1. draw 2
# random entries from each topic file; 2. look at the 8-10 together and ask: do two or more
# say 'different facets of the same thing'? are there patterns that differ on the surface but
# share a structure (isomorphism)? are there contradicting views, and is the contradiction
# itself an insight? 3. a link found -> write [REMEMBER #topic] marking the cross-domain link;
# 4. a contradiction found -> update SOUL.md My Thoughts; 5. nothing found -> that is a useful
# signal too: this knowledge may be too scattered."
CROSS_POLLINATION_GUIDE = """### Reflect: Cross-Pollination Digest

反思時做一次 cross-pollination：
1. 從每個 topic file 隨機抽 2 條 entry（用 `shuf` 或心理隨機）
2. 把 8-10 條放在一起看，問自己：
   - 有沒有兩條以上在說「同一件事的不同面向」？
   - 有沒有表面不同但結構相同的模式（同構）？
   - 有沒有互相矛盾的觀點？矛盾本身是不是洞見？
3. 找到連結 → 寫 `[REMEMBER #topic]` 標註跨域連結
4. 找到矛盾 → 更新 SOUL.md My Thoughts
5. 什麼都沒找到 → 那也是有用的信號：可能這些知識太散了"""

# Gloss: "Reflect: Thread Convergence Check. At each reflect, check where active threads
# cross: 1. read every active thread's Trail + Next; 2. find shared concepts (names of people,
# terms, frameworks); 3. two threads with 3+ shared concepts -> consider merging; 4. merging is
# not deleting but upgrading: write the higher-level framework that contains both; 5. the
# merged thread's Touches = the sum of both."
CONVERGENCE_GUIDE = """### Reflect: Thread Convergence Check

每次 reflect 時檢查 active threads 的交叉：
1. 讀所有 active threads 的 Trail + Next
2. 找共享概念（人名、術語、框架名稱）
3. 如果兩個 threads 有 3+ 個共享概念 → 考慮合併
4. 合併不是刪除，是升級 — 寫出包含兩者的更高層框架
5. 合併後的 thread 的 Touches = 兩者之和"""

# Gloss: "Reflect: Decay Review (once a week). 1. scan .topic-hits.json for entries with hit
# count = 0 and age > 7 days; 2. list this 'forgotten knowledge' (at most 10); 3. ask of each:
# has it already been absorbed into My Thoughts or a thread? -> mark absorbed; re-read, is there
# a new link? -> write a new cross-pollination record; truly unimportant now? -> keep it, do
# nothing special (natural decay); 4. the goal is not deletion but confirming digestion."
DECAY_GUIDE = """### Reflect: Decay Review（每週一次）

1. 掃 `.topic-hits.json`，找出 hit count = 0 且 age > 7 天的 entries
2. 列出這些「被遺忘的知識」（最多 10 條）
3. 每條問自己：
   - 這條知識已經被吸收進 My Thoughts 或某個 thread 了嗎？→ 標記 absorbed
   - 重看之後發現有新連結？→ 寫新的 cross-pollination 記錄
   - 真的不重要了？→ 留著但不特別處理（自然衰減）
4. 目標不是刪除，是確認消化狀態"""


SYSTEM_PREFIX = (
    "You are reviewing a mind's own topic memory. Use only the entries and threads given, and cite their ids.\n\n"
)


class DigestEntry(PromptModel):
    id: str = Field(min_length=1)
    text: str = Field(min_length=1)


class TopicSample(PromptModel):
    topic: str = Field(min_length=1)
    entries: list[DigestEntry] = Field(min_length=1)


class CrossPollinationInput(PromptModel):
    samples: list[TopicSample] = Field(min_length=1)


LinkKind = Literal["same_thing", "isomorphism", "contradiction"]


class DigestLink(PromptModel):
    """Two entries that say the same thing, share a structure, or contradict each other."""

    entry_ids: list[str] = Field(min_length=2, max_length=2)
    kind: LinkKind
    shared_terms: list[str] = []
    note: str


class CrossPollinationOutput(PromptModel):
    links: list[DigestLink] = []
    nothing_found: bool
    note: str = ""


def rumination_digest(samples: list[TopicSample]) -> str:
    """The proposal's ``<rumination-digest>`` block (each entry line carries its id)."""
    parts = [f"### {s.topic}\n" + "\n".join(f"- [{e.id}] {e.text}" for e in s.entries) for s in samples]
    return "<rumination-digest>\n" + "\n\n".join(parts) + "\n</rumination-digest>"


def render_cross_pollination(inputs: CrossPollinationInput) -> str:
    digest = rumination_digest(inputs.samples)
    return (
        "\n\n## Cross-Pollination Digest\nHere are random entries from your knowledge. "
        f"Look for hidden connections:\n{digest}"
    ).lstrip("\n")


class ThreadItem(PromptModel):
    id: str = Field(min_length=1)
    title: str = Field(min_length=1)
    progress_notes: list[str] = []
    touches: list[str] = []


class ConvergenceInput(PromptModel):
    threads: list[ThreadItem] = Field(min_length=2)


class ConvergencePair(PromptModel):
    thread_ids: list[str] = Field(min_length=2, max_length=2)
    shared_concepts: list[str] = Field(min_length=1)
    action: Literal["hint", "merge"]
    merged_title: str | None = None
    touches: list[str] = []


class ConvergenceOutput(PromptModel):
    pairs: list[ConvergencePair] = []


def convergence_hint(a_title: str, b_title: str, shared: list[str]) -> str:
    """The proposal's hint line."""
    return f'Threads "{a_title}" and "{b_title}" share concepts: {", ".join(shared)}'


CONCEPT = re.compile(r"\b[A-Z][a-z]+(?:\s[A-Z][a-z]+)*")
"""The proposal's concept pattern: capitalised names and terms in progress notes."""


def concepts(notes: Sequence[str]) -> list[str]:
    """Capitalised names and terms of ``notes``, in order of first appearance (``runs``: each
    run, then what a sentence-opening run names without its first word)."""
    own, tails = runs(notes)
    return list(dict.fromkeys([*own, *tails]))


def runs(notes: Sequence[str]) -> tuple[list[str], list[str]]:
    """(the capitalised runs of ``notes``, less leading function words; the sentence-opening
    runs without their first word). A sentence's first word is capitalised by grammar, so
    "Shared Termbase" may be the term "Termbase"; but "Google Cloud" is no "Cloud": a tail
    meets only a run of its own in another thread (``convergence``), never another tail."""
    own: dict[str, None] = {}
    tails: dict[str, None] = {}
    for note in notes:  # per note: no name spans two
        for m in CONCEPT.finditer(note):
            words = _content_words(m.group(0).split())
            if words:
                own.setdefault(" ".join(words), None)
            tail = _content_words(words[1:])
            if tail and _OPENS.search(note[: m.start()]):
                tails.setdefault(" ".join(tail), None)
    return list(own), [t for t in tails if t not in own]


def _content_words(words: list[str]) -> list[str]:
    while words and words[0].lower() in STOPWORDS:  # "The Watsuji" -> "Watsuji"
        words = words[1:]
    return words


_OPENS = re.compile(r"(?:^|[.!?;:]\s+)\s*$")
"""What comes before a sentence's first word."""


def shared_concepts(a_notes: Sequence[str], b_notes: Sequence[str]) -> list[str]:
    """The concepts two threads' notes share, in ``a``'s order: a tail (``runs``) meets a run
    of the other's own, never another tail."""
    own_a, tails_a = runs(a_notes)
    own_b, tails_b = runs(b_notes)
    return [c for c in [*own_a, *tails_a] if c in own_b or (c in own_a and c in tails_b)]


def render_convergence(inputs: ConvergenceInput) -> str:
    threads = "\n\n".join(
        f"[{t.id}] {t.title}\n" + "\n".join(f"- {note}" for note in t.progress_notes) for t in inputs.threads
    )
    pairs = [(a, b) for i, a in enumerate(inputs.threads) for b in inputs.threads[i + 1 :]]
    hints = [
        convergence_hint(a.title, b.title, s)
        for a, b in pairs
        if len(s := shared_concepts(a.progress_notes, b.progress_notes)) >= 2
    ]
    return f"Active threads:\n\n{threads}\n\n" + ("\n".join(hints) if hints else "(no convergence hints)")


class ForgottenEntry(PromptModel):
    id: str = Field(min_length=1)
    topic: str = Field(min_length=1)
    text: str = Field(min_length=1)
    age_days: int = Field(ge=0)


class ForgottenInput(PromptModel):
    entries: list[ForgottenEntry] = Field(min_length=1)
    context: list[MemoryItem] = []


class EntryReview(PromptModel):
    entry_id: str
    status: Literal["absorbed", "reconnect", "fade"]
    related_ids: list[str] = []
    note: str


class ForgottenOutput(PromptModel):
    reviews: list[EntryReview] = []


def forgotten_knowledge(entries: list[ForgottenEntry]) -> str:
    """The proposal's ``<forgotten-knowledge>`` block (each line carries the entry's id)."""
    lines = [f"- [{e.topic}, {e.age_days}d ago] [{e.id}] {e.text}" for e in entries]
    return "<forgotten-knowledge>\n" + "\n".join(lines) + "\n</forgotten-knowledge>"


def render_forgotten(inputs: ForgottenInput) -> str:
    context = format_memories(inputs.context)
    return (
        f"{forgotten_knowledge(inputs.entries)}\n\n"
        f"My Thoughts, threads and other entries they may have been absorbed into:\n{context}"
    )


CROSS_POLLINATION = Prompt(
    name="digest.cross_pollination",
    version=1,
    input_type=CrossPollinationInput,
    output_type=CrossPollinationOutput,
    system=SYSTEM_PREFIX + CROSS_POLLINATION_GUIDE,
    render=render_cross_pollination,
)
CONVERGENCE = Prompt(
    name="digest.convergence",
    version=1,
    input_type=ConvergenceInput,
    output_type=ConvergenceOutput,
    system=SYSTEM_PREFIX + CONVERGENCE_GUIDE,
    render=render_convergence,
)
FORGOTTEN = Prompt(
    name="digest.forgotten",
    version=1,
    input_type=ForgottenInput,
    output_type=ForgottenOutput,
    system=SYSTEM_PREFIX + DECAY_GUIDE,
    render=render_forgotten,
)

PROMPTS: tuple[Prompt, ...] = (CROSS_POLLINATION, CONVERGENCE, FORGOTTEN)
