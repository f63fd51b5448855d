"""`DemonstrationStore`: demonstrations kept in Chroma.

Each record is the demonstration's JSON (the document), its question's
embedding, and the fields listing filters on (the metadata). Records live in
two collections: `pandora-demonstrations` holds those that may be retrieved,
`pandora-held-back` the negative (failed) and stale ones. Retrieval therefore
never needs a metadata filter to exclude them, which keeps a query over
100,000 demonstrations within milliseconds (Chroma's filtered queries are two
orders of magnitude slower), and a failed attempt cannot be retrieved by
mistake.

The collections record which embedding made their vectors; adding or
searching with another one is refused until `reindex` re-embeds everything.
Writes take the store's write lock, are held to the size caps of
`memory.limits`, are deduplicated by id (a better-verified copy, or one as
well verified from a more trusted origin, replaces the stored one; otherwise
the first copy stays) and go in batches, each committed on its own: a bulk
add killed half-way leaves every finished batch and nothing half-written.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from pydantic import ValidationError

from memory.backend import MemoryStoreError, open_client
from memory.embeddings import Embedding, get_embedding, spec_for_name
from memory.fingerprints import question_key
from memory.limits import require_within_limits
from memory.locking import WriteLock
from memory.masking import mask_question
from memory.models import VERIFICATION_RANK, Demonstration
from memory.settings import MemorySettings
from plugins.errors import BadInputError

if TYPE_CHECKING:  # chromadb itself is imported by memory.backend when a store opens
    from chromadb.api import ClientAPI
    from chromadb.api.models.Collection import Collection

RETRIEVABLE = "pandora-demonstrations"
HELD_BACK = "pandora-held-back"
REINDEX_SUFFIX = "-reindex"
FORMAT_VERSION = 1
BATCH_SIZE = 1000
PAGE_SIZE = 2000
MASK_BLEND = 0.25


class EmbeddingMismatchError(BadInputError):
    """The store's vectors were made by another embedding than the one asked for."""


@dataclass(frozen=True)
class AddOutcome:
    """What adding one demonstration did: `added` is False for a duplicate."""

    id: str
    added: bool
    verified: str


@dataclass
class AddCounts:
    """What a bulk add did: new records, replaced weaker copies, duplicates kept."""

    added: int = 0
    replaced: int = 0
    duplicates: int = 0


@dataclass(frozen=True)
class MemoryStats:
    """Counts for `pandora memory stats`."""

    count: int
    by_kind: dict[str, int]
    by_verified: dict[str, int]
    by_representation: dict[str, int]
    negative: int
    stale: int
    embedding: str
    location: str


@dataclass(frozen=True)
class Hit:
    """One record found by a vector query: the demonstration, its similarity
    and its metadata (for filtering without parsing)."""

    demonstration: Demonstration
    score: float
    metadata: dict[str, Any]


class DemonstrationStore:
    """Demonstrations in Chroma, embedded by `embedding`, masked or not.

    `shared` is True for a Chroma server (`PANDORA_MEMORY_URL`): anyone who
    reaches the server can write any record, so none of its records is known
    to come from a person on this machine.
    """

    def __init__(
        self,
        client: ClientAPI,
        lock: WriteLock,
        location: str,
        embedding: Embedding,
        masking: bool,
        shared: bool = False,
    ):
        self.client = client
        self.lock = lock
        self.location = location
        self.embedding = embedding
        self.masking = masking
        self.shared = shared
        with self.lock.held():
            self._finish_interrupted_reindex()
            self.retrievable = self._open_collection(RETRIEVABLE)
            self.held_back = self._open_collection(HELD_BACK)

    @classmethod
    def open(
        cls,
        settings: MemorySettings | None = None,
        *,
        embedding: Embedding | None = None,
        load_seed: bool = True,
    ) -> DemonstrationStore:
        """Open the store `settings` name (default: from the environment).

        On first use (and after an upgrade that ships new ones) the seed
        demonstrations bundled with Pandora are added.
        """
        settings = settings or MemorySettings.from_env()
        client, lock = open_client(settings)
        store = cls(
            client,
            lock,
            settings.location,
            embedding or get_embedding(settings.embedding),
            settings.masking,
            shared=settings.server_url is not None,
        )
        if load_seed and store.embedding_matches():
            from memory.seed import load_seed_into

            load_seed_into(store)
        return store

    # --- identity -----------------------------------------------------------

    @property
    def embedding_identity(self) -> str:
        """The name of the vectors this store object makes: embedding + masking."""
        return self.embedding.name + ("+masked" if self.masking else "")

    @property
    def recorded_embedding(self) -> str:
        """The name of the vectors the collections hold."""
        return str((self.retrievable.metadata or {}).get("embedding", ""))

    def embedding_matches(self) -> bool:
        """Whether this store object may add to and search the collections."""
        return self.recorded_embedding == self.embedding_identity

    def require_matching_embedding(self) -> None:
        """Raise a clear error when the configured embedding is not the recorded one."""
        if not self.embedding_matches():
            raise EmbeddingMismatchError(
                f"memory {self.location} holds vectors of embedding "
                f"{self.recorded_embedding!r}, but {self.embedding_identity!r} is configured; "
                "run `pandora memory reindex` to re-embed it with the configured one"
                f"{_keep_using_hint(self.recorded_embedding)}"
            )

    def embed_questions(self, questions: Sequence[str], *, query: bool = False) -> np.ndarray:
        """The vectors of `questions` as this store embeds them: stored
        questions, or searches (`query=True`; some models embed the two roles
        differently).

        With masking, the masked question's vector is blended with a little of
        the original's: the pattern still dominates, but questions that mask
        to the same text do not get identical vectors (an HNSW index full of
        exact duplicates can lose records), and among equally similar
        patterns the one about the same entities ranks first.
        """
        if not self.masking:
            return self.embedding.embed(list(questions), query=query)
        masked = self.embedding.embed([mask_question(q) for q in questions], query=query)
        blended = masked + MASK_BLEND * self.embedding.embed(list(questions), query=query)
        norms = np.linalg.norm(blended, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return (blended / norms).astype(np.float32)

    # --- writing ------------------------------------------------------------

    def add(self, demonstration: Demonstration) -> AddOutcome:
        """Add one demonstration; a duplicate keeps the better copy (`keep_rank`)."""
        counts = self.add_many([demonstration])
        stored = self.get(demonstration.id)
        verified = stored.verified if stored else demonstration.verified
        return AddOutcome(demonstration.id, counts.added + counts.replaced > 0, verified)

    def add_many(
        self,
        demonstrations: Iterable[Demonstration],
        batch_size: int = BATCH_SIZE,
        on_batch: Callable[[AddCounts], None] | None = None,
    ) -> AddCounts:
        """Add demonstrations in batches, each committed on its own.

        A demonstration over a size cap raises `DemonstrationTooLarge` before
        its batch is written. `on_batch` is called after each committed batch
        (progress reports).
        """
        self.require_matching_embedding()
        counts = AddCounts()
        batch: list[Demonstration] = []
        for demonstration in demonstrations:
            batch.append(demonstration)
            if len(batch) >= batch_size:
                self._add_batch(batch, counts)
                batch = []
                if on_batch:
                    on_batch(counts)
        if batch:
            self._add_batch(batch, counts)
            if on_batch:
                on_batch(counts)
        return counts

    def _add_batch(self, batch: list[Demonstration], counts: AddCounts) -> None:
        unique: dict[str, Demonstration] = {}
        for demonstration in batch:
            require_within_limits(demonstration)
            kept = unique.get(demonstration.id)
            if kept is None or demonstration.keep_rank > kept.keep_rank:
                unique[demonstration.id] = demonstration
        counts.duplicates += len(batch) - len(unique)
        with self.lock.held():
            existing_rank = self.stored_keep_ranks(list(unique))
            writes = []
            for record_id, demonstration in unique.items():
                if record_id not in existing_rank:
                    counts.added += 1
                elif demonstration.keep_rank > existing_rank[record_id]:
                    counts.replaced += 1
                else:
                    counts.duplicates += 1
                    continue
                writes.append(demonstration)
            self._write(writes)

    def update(self, demonstration: Demonstration) -> None:
        """Rewrite a stored demonstration (after re-verification or a staleness
        check), moving it between the retrievable and held-back collections."""
        self.require_matching_embedding()
        with self.lock.held():
            self._write([demonstration])

    def remove(self, demonstration_id: str) -> bool:
        """Delete the demonstration with this id; False when there is none."""
        self.require_matching_embedding()
        with self.lock.held():
            if self.get(demonstration_id) is None:
                return False
            for collection in (self.retrievable, self.held_back):
                collection.delete(ids=[demonstration_id])
        return True

    def stored_keep_ranks(self, ids: list[str]) -> dict[str, tuple[int, int]]:
        """`Demonstration.keep_rank` of the stored records among `ids`."""
        # Read from the documents, not the metadata: a record stored before
        # origins existed reads with its verification capped (`ORIGIN_CEILING`).
        ranks: dict[str, tuple[int, int]] = {}
        for collection in (self.retrievable, self.held_back):
            found = collection.get(ids=ids, include=["documents"])
            for record_id, document in zip(found["ids"], found["documents"] or [], strict=True):
                ranks[record_id] = _parse(document).keep_rank
        return ranks

    def _write(self, demonstrations: list[Demonstration]) -> None:
        vectors = self.embed_questions([d.question for d in demonstrations])
        for collection, other, wanted in (
            (self.retrievable, self.held_back, True),
            (self.held_back, self.retrievable, False),
        ):
            rows = [i for i, d in enumerate(demonstrations) if d.retrievable == wanted]
            if not rows:
                continue
            ids = [demonstrations[i].id for i in rows]
            other.delete(ids=ids)
            _upsert(collection, [demonstrations[i] for i in rows], vectors[rows])

    # --- reading ------------------------------------------------------------

    def count(self) -> int:
        """How many records the store holds (negative and stale ones included)."""
        return self.retrievable.count() + self.held_back.count()

    def get(self, demonstration_id: str) -> Demonstration | None:
        """The demonstration with this id, or None."""
        for collection in (self.retrievable, self.held_back):
            found = collection.get(ids=[demonstration_id], include=["documents"])
            if found["documents"]:
                return _parse(found["documents"][0])
        return None

    def find(
        self,
        where: dict[str, Any] | None,
        limit: int | None = None,
        *,
        retrievable_only: bool = False,
    ) -> list[Demonstration]:
        """Demonstrations whose metadata match a `where` filter (equality
        filters on one field are fast; ranges and `$and` scan the collection)."""
        found: list[Demonstration] = []
        collections = [self.retrievable] if retrievable_only else [self.retrievable, self.held_back]
        for collection in collections:
            remaining = None if limit is None else limit - len(found)
            if remaining is not None and remaining <= 0:
                break
            result = collection.get(where=where, limit=remaining, include=["documents"])
            found.extend(_parse(document) for document in result["documents"] or [])
        return found

    def iter_all(self, page_size: int = PAGE_SIZE) -> Iterator[Demonstration]:
        """Every record, page by page (for export, reindex and staleness checks)."""
        for collection in (self.retrievable, self.held_back):
            for page in _pages(collection, ["documents"], page_size):
                yield from (_parse(document) for document in page["documents"] or [])

    def nearest(self, vector: np.ndarray, n: int, where: dict[str, Any] | None = None) -> list[Hit]:
        """The `n` retrievable records nearest to `vector`, best first."""
        self.require_matching_embedding()
        found = self.retrievable.query(
            query_embeddings=vector.reshape(1, -1),
            n_results=n,
            where=where,
            include=["documents", "distances", "metadatas"],
        )
        documents = (found["documents"] or [[]])[0]
        distances = (found["distances"] or [[]])[0]
        metadatas = (found["metadatas"] or [[]])[0]
        return [
            Hit(_parse(document), 1.0 - float(distance), dict(metadata))
            for document, distance, metadata in zip(documents, distances, metadatas, strict=True)
        ]

    def retrievable_count(self) -> int:
        """How many records retrieval may return."""
        return self.retrievable.count()

    def retrievable_ids(
        self, where: dict[str, Any] | None = None, limit: int | None = None
    ) -> list[str]:
        """The ids of retrievable records matching `where` (at most `limit`)."""
        return list(self.retrievable.get(where=where, limit=limit, include=[])["ids"])

    def retrievable_vectors(self, ids: list[str]) -> dict[str, np.ndarray]:
        """The stored vectors of the retrievable records among `ids`."""
        found = self.retrievable.get(ids=ids, include=["embeddings"])
        embeddings = found["embeddings"] if found["embeddings"] is not None else []
        return {
            record_id: np.asarray(vector, dtype=np.float32)
            for record_id, vector in zip(found["ids"], embeddings, strict=True)
        }

    def retrievable_demonstrations(self, ids: list[str]) -> dict[str, Demonstration]:
        """The retrievable demonstrations among `ids`, by id."""
        found = self.retrievable.get(ids=ids, include=["documents"])
        return {
            record_id: _parse(document)
            for record_id, document in zip(found["ids"], found["documents"] or [], strict=True)
        }

    def stats(self) -> MemoryStats:
        """Counts by kind, verification and representation, and the embedding."""
        by_kind: Counter[str] = Counter()
        by_verified: Counter[str] = Counter()
        by_representation: Counter[str] = Counter()
        negative = stale = 0
        for collection in (self.retrievable, self.held_back):
            for page in _pages(collection, ["metadatas"], PAGE_SIZE):
                for metadata in page["metadatas"] or []:
                    by_kind[str(metadata["kind"])] += 1
                    by_verified[str(metadata["verified"])] += 1
                    by_representation[str(metadata["representation"])] += 1
                    negative += bool(metadata["negative"])
                    stale += bool(metadata["stale"])
        return MemoryStats(
            count=sum(by_kind.values()),
            by_kind=dict(sorted(by_kind.items())),
            by_verified=dict(sorted(by_verified.items())),
            by_representation=dict(sorted(by_representation.items())),
            negative=negative,
            stale=stale,
            embedding=self.recorded_embedding,
            location=self.location,
        )

    # --- the collections and their metadata -----------------------------------

    def metadata_value(self, key: str) -> Any:
        """One value of the store's metadata as stored now (None when absent);
        another process may have changed it since this store was opened."""
        self.retrievable = self.client.get_collection(RETRIEVABLE)
        return (self.retrievable.metadata or {}).get(key)

    def set_metadata_value(self, key: str, value: str | int | bool) -> None:
        """Record one value in the store's metadata."""
        with self.lock.held():
            self.retrievable = self.client.get_collection(RETRIEVABLE)
            self.retrievable.modify(metadata={**(self.retrievable.metadata or {}), key: value})

    def _open_collection(self, name: str) -> Collection:
        from chromadb.errors import NotFoundError

        try:
            collection = self.client.get_collection(name)
        except NotFoundError:
            collection = self._create(name, self.embedding_identity)
        except Exception as error:
            raise MemoryStoreError(
                f"memory store {self.location} is unreadable ({error}); it was left unchanged"
            ) from error
        _check_format(collection, self.location)
        return collection

    def _create(self, name: str, embedding_identity: str) -> Collection:
        return self.client.create_collection(
            name,
            metadata={"pandora_format": FORMAT_VERSION, "embedding": embedding_identity},
            configuration={"hnsw": {"space": "cosine"}},
            embedding_function=None,
        )

    # --- reindex ------------------------------------------------------------

    def reindex(self, on_batch: Callable[[int], None] | None = None) -> int:
        """Re-embed every record with this store object's embedding and masking.

        The new vectors go to new collections that replace the old ones only
        once both are complete, so an interrupted reindex leaves the old ones
        in use (or is finished on the next open). Returns the records re-embedded.
        """
        with self.lock.held():
            names = self._collection_names()
            for name in (RETRIEVABLE, HELD_BACK):
                if name + REINDEX_SUFFIX in names:
                    self.client.delete_collection(name + REINDEX_SUFFIX)
            done = 0
            for old in (self.retrievable, self.held_back):
                target = self._create(old.name + REINDEX_SUFFIX, self.embedding_identity)
                for page in _pages(old, ["documents"], BATCH_SIZE):
                    demos = [_parse(document) for document in page["documents"] or []]
                    vectors = self.embed_questions([d.question for d in demos])
                    _upsert(target, demos, vectors)
                    done += len(demos)
                    if on_batch:
                        on_batch(done)
            metadata = {**(self.retrievable.metadata or {}), "embedding": self.embedding_identity}
            pending = self.client.get_collection(RETRIEVABLE + REINDEX_SUFFIX)
            pending.modify(metadata={**metadata, "reindex_complete": True})
            self._finish_interrupted_reindex()
            self.retrievable = self.client.get_collection(RETRIEVABLE)
            self.held_back = self.client.get_collection(HELD_BACK)
        return done

    def _finish_interrupted_reindex(self) -> None:
        names = self._collection_names()
        pending_name = RETRIEVABLE + REINDEX_SUFFIX
        if pending_name not in names:
            return
        pending = self.client.get_collection(pending_name)
        metadata = dict(pending.metadata or {})
        if not metadata.pop("reindex_complete", False):
            return  # an unfinished copy: the old collections are still the store
        for name in (HELD_BACK, RETRIEVABLE):
            if name + REINDEX_SUFFIX not in names:
                continue
            if name in names:
                self.client.delete_collection(name)
            replacement = self.client.get_collection(name + REINDEX_SUFFIX)
            kept = metadata if name == RETRIEVABLE else replacement.metadata
            replacement.modify(name=name, metadata=kept)

    def _collection_names(self) -> set[str]:
        return {collection.name for collection in self.client.list_collections()}


def _keep_using_hint(recorded: str) -> str:
    """How to keep using vectors named `recorded` as they are, for the mismatch error."""
    embedding_name, masked, _ = recorded.partition("+masked")
    spec = spec_for_name(embedding_name)
    if spec is None:
        return ", or configure the recorded one (PANDORA_EMBEDDING, PANDORA_MEMORY_MASKING)"
    return f", or set PANDORA_EMBEDDING={spec} PANDORA_MEMORY_MASKING={int(bool(masked))}"


def record_metadata(demonstration: Demonstration) -> dict[str, str | int | bool]:
    """The fields listing and filtering use, as Chroma metadata."""
    return {
        "kind": demonstration.kind,
        "representation": demonstration.representation,
        "dataset": demonstration.dataset,
        "verified": demonstration.verified,
        "verified_rank": VERIFICATION_RANK[demonstration.verified],
        "origin": demonstration.origin,
        "negative": demonstration.negative,
        "stale": demonstration.stale,
        "question_key": question_key(demonstration.question),
        "schema_fingerprint": demonstration.schema_fingerprint,
    }


def _upsert(collection: Collection, demos: list[Demonstration], vectors: np.ndarray) -> None:
    if demos:
        collection.upsert(
            ids=[d.id for d in demos],
            embeddings=vectors,
            documents=[d.to_json_line() for d in demos],
            metadatas=[record_metadata(d) for d in demos],
        )


def _pages(collection: Collection, include: list[str], page_size: int) -> Iterator[Any]:
    offset = 0
    while True:
        page = collection.get(limit=page_size, offset=offset, include=include)
        if not page["ids"]:
            return
        yield page
        offset += len(page["ids"])


def _parse(document: str) -> Demonstration:
    try:
        return Demonstration.model_validate_json(document)
    except ValidationError as error:
        raise MemoryStoreError(f"a stored demonstration does not validate: {error}") from error


def _check_format(collection: Collection, location: str) -> None:
    metadata = collection.metadata or {}
    version = metadata.get("pandora_format")
    if not isinstance(version, int):
        raise MemoryStoreError(
            f"memory store {location}: collection {collection.name!r} was not written by "
            "Pandora; it was left unchanged"
        )
    if version > FORMAT_VERSION:
        raise MemoryStoreError(
            f"memory store {location} was written by a newer Pandora (format {version}; "
            f"this one reads up to {FORMAT_VERSION}); upgrade Pandora. It was left unchanged"
        )
