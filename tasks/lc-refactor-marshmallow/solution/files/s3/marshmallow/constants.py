"""Constants and sentinels used throughout marshmallow."""
import enum


class Unknown(str, enum.Enum):
    """How a `Schema <marshmallow.Schema>` handles input keys that do not
    correspond to any of its fields (the ``unknown`` option).

    Members are strings, so ``Unknown.RAISE == "raise"``.

    .. versionadded:: 3.14.0
    """

    #: Raise a `ValidationError <marshmallow.exceptions.ValidationError>`.
    RAISE = "raise"
    #: Include the unknown keys in the deserialized data.
    INCLUDE = "include"
    #: Exclude (drop) the unknown keys.
    EXCLUDE = "exclude"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def coerce(cls, value: "str | Unknown") -> "Unknown":
        """Return the member for ``value`` (a member or its string value).

        :raises ValueError: if ``value`` is not a valid ``unknown`` option.
        """
        try:
            return cls(value)
        except (ValueError, TypeError):
            raise ValueError(
                "Object {!r} is not a valid value for the 'unknown' parameter".format(
                    value
                )
            ) from None


RAISE = Unknown.RAISE
INCLUDE = Unknown.INCLUDE
EXCLUDE = Unknown.EXCLUDE


class _Missing:
    def __bool__(self):
        return False

    def __copy__(self):
        return self

    def __deepcopy__(self, _):
        return self

    def __repr__(self):
        return "<marshmallow.missing>"


# Singleton value that indicates that a field's value is missing from input
# dict passed to :meth:`Schema.load`. If the field's value is not required,
# it's ``default`` value is used.
missing = _Missing()
