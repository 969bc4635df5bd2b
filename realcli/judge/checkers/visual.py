"""``checker = "visual"``: facts about the pixels of a genuine capture (its size, the share
of a region in one colour, that it differs from the run's first screenshot)."""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from realcli.judge.base import CHECKERS
from realcli.judge.checkers.common import ClauseChecker, args_error, judgement, read_file
from realcli.judge.checkers.provenance import shot_evidence
from realcli.judge.context import BadImage, RunEvidence
from realcli.schema.base import Frozen
from realcli.schema.judgement import ClauseJudgement, Evidence
from realcli.schema.task_spec import Clause, Deliverable

__all__ = ["VisualArgs", "VisualChecker", "colour_share"]


class VisualArgs(Frozen):
    size: tuple[int, int] | None = Field(None, description="[width, height] of the image")
    region: tuple[int, int, int, int] | None = Field(
        None, description="[x, y, w, h] the colour is measured in (default: the whole image)"
    )
    colour: str | None = Field(
        None, pattern=r"^#[0-9a-fA-F]{6}$", description="#rrggbb the region should show"
    )
    tolerance: int = Field(0, ge=0, le=255, description="per-channel difference still counted")
    min_share: float = Field(
        0.5, gt=0, le=1, description="share of the region's pixels within tolerance of colour"
    )
    differs_from_first: bool = Field(
        False, description="the image is not pixel-identical to the run's first screenshot"
    )

    @model_validator(mode="after")
    def _something(self) -> VisualArgs:
        if self.region is not None and self.colour is None:
            raise args_error("region needs a colour to measure", "add colour = '#rrggbb'")
        if self.size is None and self.colour is None and not self.differs_from_first:
            raise args_error(
                "a visual clause checks nothing",
                "set size, colour (with region) or differs_from_first",
            )
        if self.size is not None and min(self.size) < 1:
            raise args_error("size must be positive", "use [width, height] in pixels")
        if self.region is not None and (min(self.region[2:]) < 1 or min(self.region[:2]) < 0):
            raise args_error("bad region", "use [x >= 0, y >= 0, w >= 1, h >= 1]")
        return self


def colour_share(im: Any, region: tuple[int, int, int, int], colour: str, tolerance: int) -> float:
    """Share of ``region``'s pixels whose every channel is within ``tolerance`` of colour."""
    from PIL import Image, ImageChops

    x, y, w, h = region
    crop = im.crop((x, y, x + w, y + h))
    rgb = tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
    diff = ImageChops.difference(crop, Image.new("RGB", crop.size, rgb))
    bands = [b.point(lambda v: 255 if v <= tolerance else 0) for b in diff.split()]
    mask = ImageChops.multiply(ImageChops.multiply(bands[0], bands[1]), bands[2])
    return mask.histogram()[255] / (w * h)


@CHECKERS.register("visual")
class VisualChecker(ClauseChecker):
    """Only a genuine capture counts (provenance captured or witnessed; anything else is
    false): satisfied when every requested fact holds, false otherwise."""

    name = "visual"
    Args = VisualArgs
    needs_trajectory = True

    def check(
        self, run: RunEvidence, deliverable: Deliverable, clause: Clause, args: Any
    ) -> ClauseJudgement:
        a: VisualArgs = args
        rel = deliverable.path
        status, evidence, prov = shot_evidence(run, rel)
        if not prov.genuine:
            return judgement(
                clause,
                self.name,
                "false",
                f"{rel} is not a genuine capture ({status}: {prov.detail}); its pixels prove "
                "nothing",
                evidence,
            )
        f = read_file(run, rel)
        if f.data is None:
            return judgement(clause, self.name, "false", f.problem or f"{rel} is missing")
        try:
            im = run.decode_image(f.data, rel)
        except BadImage as exc:
            return judgement(clause, self.name, "false", str(exc), evidence)
        facts: list[str] = []
        problems: list[str] = []
        if a.size is not None:
            fact = f"size {im.width}x{im.height}"
            if (im.width, im.height) == tuple(a.size):
                facts.append(fact)
            else:
                problems.append(f"{fact}, not {a.size[0]}x{a.size[1]}")
        if a.colour is not None:
            region = a.region or (0, 0, im.width, im.height)
            x, y, w, h = region
            if x + w > im.width or y + h > im.height:
                problems.append(
                    f"region {list(region)} lies outside the {im.width}x{im.height} image"
                )
            else:
                share = colour_share(im, region, a.colour, a.tolerance)
                fact = f"{share:.3f} of region {list(region)} is {a.colour} (±{a.tolerance})"
                if share >= a.min_share:
                    facts.append(fact)
                else:
                    problems.append(f"only {fact}, below {a.min_share}")
        if a.differs_from_first:
            first = run.screenshots[0] if run.screenshots else None
            if first is None:
                problems.append("the run has no screenshot to compare with")
            else:
                try:
                    ref = run.decode_image(run.screenshot_bytes(first), first.path)
                except BadImage as exc:
                    problems.append(f"first screenshot unreadable ({exc})")
                else:
                    same = ref.size == im.size and ref.tobytes() == im.tobytes()
                    (problems if same else facts).append(
                        f"{'identical to' if same else 'differs from'} the first screenshot "
                        f"{first.path} (seq {first.seq})"
                    )
        evidence = (*evidence, *(Evidence(kind="value", quote=q, path=rel) for q in facts))
        if problems:
            return judgement(clause, self.name, "false", f"{rel}: {'; '.join(problems)}", evidence)
        return judgement(clause, self.name, "satisfied", f"{rel}: {'; '.join(facts)}", evidence)
