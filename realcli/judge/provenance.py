"""Where a deliverable image came from: provenance decides whether it is evidence, not the
name of the tool that wrote it.

* ``captured``: its bytes are a screenshot the trusted GUI service took of the run's display
  (a ``screenshot`` ledger event other than a witness has its sha256).
* ``witnessed``: its pixels equal (up to :data:`SAME_SHARE` of pixels, for a clock or cursor
  blink) a *witness* capture: the host's own capture of the display taken right after a CLI
  tool call that wrote an image (``source = "witness"``). A genuine ``scrot``, ``import -window
  root`` or ``xwd`` capture made through the shell is witnessed.
* ``derived``: made from a genuine capture — a crop of one (found pixel for pixel), the same
  frame with a local change (an overlay: :attr:`Provenance.changed_box`), or a recolour /
  resize of one (perceptual-hash distance at most :data:`PHASH_NEAR`).
* ``unbacked``: no capture of the run explains it (drawn, generated, or brought from elsewhere).
* ``missing``: no regular file at the path (a link is never followed); ``bad_image``: the bytes
  do not decode as an image.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from realcli.judge.context import BadImage, RunEvidence, ToolStep
from realcli.schema.events import ScreenshotEvent
from realcli.schema.judgement import Evidence, ProvenanceClass, ScreenshotCheck
from realcli.util.hashing import sha256_bytes

if TYPE_CHECKING:
    import numpy as np
    from PIL.Image import Image

__all__ = [
    "PHASH_NEAR",
    "SAME_SHARE",
    "WITNESS",
    "Provenance",
    "ProvenanceStatus",
    "capture_pixels",
    "classify",
    "phash_of",
    "screenshot_check",
]

WITNESS = "witness"
"""``ScreenshotEvent.source`` of the host's witness captures."""
SAME_SHARE = 0.005
"""Pixels that may differ (by more than :data:`_PIXEL_TOL` in a channel) for two frames to be
the same screen."""
OVERLAY_SHARE = 0.05
"""Up to this share of differing pixels, a same-size image is the capture with a local change."""
PHASH_NEAR = 10
"""Perceptual-hash (64-bit pHash) distance at which an image is a recolour/resize of a capture."""
_PIXEL_TOL = 24
_MAX_CROP_CANDIDATES = 4000

ProvenanceStatus = ProvenanceClass


@dataclass(frozen=True)
class Provenance:
    path: str
    status: ProvenanceStatus
    detail: str
    sha256: str | None = None
    shot: ScreenshotEvent | None = None
    writer: ToolStep | None = None
    how: Literal["bytes", "pixels", "crop", "overlay", "phash"] | None = None
    similarity: float | None = None
    """share of equal pixels (pixels/overlay/crop) or 1 - pHash distance / 64 (phash)"""
    changed_box: tuple[int, int, int, int] | None = None
    """overlay: the box (x, y, w, h) where the image differs from the capture"""
    crop_box: tuple[int, int, int, int] | None = None
    """crop: where in the capture the image was cut from"""
    evidence: tuple[Evidence, ...] = ()

    @property
    def genuine(self) -> bool:
        return self.status in ("captured", "witnessed")


def screenshot_check(p: Provenance) -> ScreenshotCheck:
    """The judgement record of a classification (``Judgement.screenshots``)."""
    shot = p.shot
    changed = phash = None
    if p.similarity is not None and p.how in ("pixels", "overlay"):
        changed = round(1 - p.similarity, 4)
    elif p.similarity is not None and p.how == "phash":
        phash = round((1 - p.similarity) * 64)
    return ScreenshotCheck(
        deliverable=p.path,
        provenance=p.status,
        sha256=p.sha256,
        how=p.how,
        capture_seq=shot.seq if shot else None,
        capture_source=shot.source if shot else None,
        capture_sha256=shot.sha256 if shot else None,
        similarity=p.similarity,
        changed_share=changed,
        phash_distance=phash,
        box=p.crop_box or p.changed_box,
        writer_seq=p.writer.seq if p.writer else None,
        writer_tool=p.writer.call.name if p.writer else None,
        reason=p.detail,
    )


def _pixels(image: Image) -> np.ndarray:
    import numpy as np

    return np.asarray(image, dtype=np.int16)


def capture_pixels(run: RunEvidence, shot: ScreenshotEvent) -> np.ndarray | None:
    """The decoded RGB pixels of a screenshot event (cached per run), or None if unreadable."""
    cache: dict[str, np.ndarray | None] = run.__dict__.setdefault("_capture_pixels", {})
    if shot.sha256 not in cache:
        try:
            data = run.screenshot_bytes(shot)
            cache[shot.sha256] = _pixels(run.decode_image(data, shot.path))
        except BadImage:
            cache[shot.sha256] = None
    return cache[shot.sha256]


def phash_of(run: RunEvidence, shot: ScreenshotEvent) -> object | None:
    """The 64-bit pHash of a screenshot event's pixels (cached per run), or None."""
    import imagehash
    from PIL import Image as PILImage

    cache: dict[str, object | None] = run.__dict__.setdefault("_capture_phash", {})
    if shot.sha256 not in cache:
        px = capture_pixels(run, shot)
        cache[shot.sha256] = (
            None if px is None else imagehash.phash(PILImage.fromarray(px.astype("uint8")))
        )
    return cache[shot.sha256]


def _diff_mask(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    import numpy as np

    return np.asarray((np.abs(a - b) > _PIXEL_TOL).any(axis=2))


def _box(mask: np.ndarray) -> tuple[int, int, int, int]:
    import numpy as np

    ys, xs = np.nonzero(mask)
    x0, y0 = int(xs.min()), int(ys.min())
    return x0, y0, int(xs.max()) - x0 + 1, int(ys.max()) - y0 + 1


def _find_crop(small: np.ndarray, big: np.ndarray) -> tuple[int, int] | None:
    """Top-left (x, y) where ``small`` occurs in ``big`` pixel for pixel (a lossless crop):
    its most varied row is searched as a byte string in each row of ``big`` (C speed), and
    each hit is checked whole."""
    import numpy as np

    h, w = small.shape[:2]
    bh, bw = big.shape[:2]
    if h > bh or w > bw or (h, w) == (bh, bw) or h * w < 64:
        return None
    s8 = small.astype(np.uint8)
    b8 = np.ascontiguousarray(big.astype(np.uint8))
    key_row = max(range(h), key=lambda r: len(np.unique(s8[r], axis=0)))
    key = s8[key_row].tobytes()
    checked = 0
    for y in range(key_row, bh - (h - key_row) + 1):
        row = b8[y].tobytes()
        at = row.find(key)
        while at != -1:
            if at % 3 == 0:
                x, top = at // 3, y - key_row
                checked += 1
                if np.array_equal(b8[top : top + h, x : x + w], s8):
                    return x, top
                if checked > _MAX_CROP_CANDIDATES:
                    return None
            at = row.find(key, at + 1)
    return None


def _shot_evidence(shot: ScreenshotEvent, what: str) -> Evidence:
    return Evidence(
        kind="screenshot",
        quote=f"{what}: {shot.source} capture {shot.width}x{shot.height} ({shot.path})",
        path=shot.path,
        seq=shot.seq,
        sha256=shot.sha256,
    )


def classify(run: RunEvidence, rel: str) -> Provenance:
    """The provenance of the workspace image ``rel``, with cited evidence."""
    cache: dict[str, Provenance] = run.__dict__.setdefault("_provenance", {})
    if rel not in cache:
        cache[rel] = _classify(run, rel)
    return cache[rel]


def _classify(run: RunEvidence, rel: str) -> Provenance:
    import imagehash
    from PIL import Image as PILImage

    data = run.read_workspace(rel)
    writer = run.writer_of(rel)
    if data is None:
        return Provenance(rel, "missing", f"{rel}: no regular file (links are not followed)")
    sha = sha256_bytes(data)
    file_ev = Evidence(kind="file", quote=f"{rel}: {len(data)} bytes", path=rel, sha256=sha)
    shot = run.screenshot_by_sha.get(sha)
    if shot is not None and shot.source != WITNESS:
        return Provenance(
            rel,
            "captured",
            f"{rel} is the {shot.source} capture at seq {shot.seq}",
            sha,
            shot,
            writer,
            "bytes",
            1.0,
            evidence=(_shot_evidence(shot, "same sha256 as"), file_ev),
        )
    try:
        pixels = _pixels(run.decode_image(data, rel))
    except BadImage as exc:
        return Provenance(rel, "bad_image", str(exc), sha, writer=writer, evidence=(file_ev,))
    h, w = pixels.shape[:2]
    witnesses = [s for s in run.screenshots if s.source == WITNESS]
    if writer is not None:  # the witness taken after the call that wrote it comes first
        witnesses.sort(key=lambda s: (s.call_id != writer.call.call_id, abs(s.seq - writer.seq)))
    for ws in witnesses:
        px = capture_pixels(run, ws)
        if px is None or px.shape != pixels.shape:
            continue
        same = 1.0 - float(_diff_mask(px, pixels).mean())
        if same >= 1.0 - SAME_SHARE:
            return Provenance(
                rel,
                "witnessed",
                f"{rel} shows the display as the host's witness capture at seq {ws.seq} did"
                f" ({same:.1%} of pixels equal)",
                sha,
                ws,
                writer,
                "pixels",
                round(same, 4),
                evidence=(_shot_evidence(ws, "pixels equal the witness"), file_ev),
            )
    genuine = [s for s in run.screenshots]
    best: Provenance | None = None
    for gs in genuine:  # a local change of a genuine frame (overlay)
        px = capture_pixels(run, gs)
        if px is None or px.shape != pixels.shape:
            continue
        mask = _diff_mask(px, pixels)
        share = float(mask.mean())
        if share <= OVERLAY_SHARE and (best is None or 1 - share > (best.similarity or 0)):
            box = _box(mask) if share > 0 else (0, 0, 0, 0)
            best = Provenance(
                rel,
                "derived",
                f"{rel} is the capture at seq {gs.seq} with {share:.2%} of its pixels changed"
                f" in the box x={box[0]} y={box[1]} w={box[2]} h={box[3]}",
                sha,
                gs,
                writer,
                "overlay",
                round(1 - share, 4),
                changed_box=box,
                evidence=(_shot_evidence(gs, "edited copy of"), file_ev),
            )
    if best is not None:
        return best
    for gs in genuine:  # a crop
        px = capture_pixels(run, gs)
        if px is None or px.shape[0] < h or px.shape[1] < w:
            continue
        at = _find_crop(pixels, px)
        if at is not None:
            return Provenance(
                rel,
                "derived",
                f"{rel} ({w}x{h}) is cut from the capture at seq {gs.seq} at x={at[0]} y={at[1]}",
                sha,
                gs,
                writer,
                "crop",
                1.0,
                crop_box=(at[0], at[1], w, h),
                evidence=(_shot_evidence(gs, f"crop at x={at[0]} y={at[1]} of"), file_ev),
            )
    own = imagehash.phash(PILImage.fromarray(pixels.astype("uint8")))
    near: tuple[int, ScreenshotEvent] | None = None
    for gs in genuine:  # a recolour or resize
        ph = phash_of(run, gs)
        if ph is None:
            continue
        dist = int(own - ph)  # type: ignore[operator]
        if dist <= PHASH_NEAR and (near is None or dist < near[0]):
            near = (dist, gs)
    if near is not None:
        dist, gs = near
        return Provenance(
            rel,
            "derived",
            f"{rel} is a recolour/resize of the capture at seq {gs.seq} (pHash distance {dist})",
            sha,
            gs,
            writer,
            "phash",
            round(1 - dist / 64, 4),
            evidence=(_shot_evidence(gs, f"pHash distance {dist} to"), file_ev),
        )
    by = f"; written by {writer.call.name} at seq {writer.seq}" if writer else ""
    evidence = (file_ev, writer.evidence()) if writer else (file_ev,)
    return Provenance(
        rel,
        "unbacked",
        f"{rel} ({w}x{h}) matches none of the run's {len(run.screenshots)} captures{by}",
        sha,
        writer=writer,
        evidence=evidence,
    )
