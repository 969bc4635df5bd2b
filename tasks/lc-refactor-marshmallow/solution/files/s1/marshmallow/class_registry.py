"""A registry of :class:`Schema <marshmallow.Schema>` classes. This allows for string
lookup of schemas, which may be used with
class:`fields.Nested <marshmallow.fields.Nested>`.

Schemas are registered in a :class:`ClassRegistry`. Unless a schema's
``class Meta`` names another registry (the ``registry`` option), it is
registered in :data:`default_registry`.

.. warning::

    The module-level :func:`register` and :func:`get_class` functions are
    treated as private API. Users should not need to use them directly.
"""
import typing
import warnings

from marshmallow.exceptions import RegistryError

if typing.TYPE_CHECKING:
    from marshmallow import Schema

    SchemaType = typing.Type[Schema]


class ClassRegistry:
    """A registry of schema classes, looked up by class name or by full,
    module-qualified path.

    Each instance is independent: classes registered in one registry are not
    visible from another one.

    .. versionadded:: 3.14.0
    """

    def __init__(self) -> None:
        # {
        #   <class_name>: <list of class objects>
        #   <module_path_to_class>: <list of class objects>
        # }
        self._classes = {}  # type: typing.Dict[str, typing.List["SchemaType"]]

    def __repr__(self) -> str:
        return "<{} with {} names>".format(type(self).__name__, len(self._classes))

    def __contains__(self, classname: object) -> bool:
        return classname in self._classes

    def __len__(self) -> int:
        return len(self._classes)

    def clear(self) -> None:
        """Remove every class from the registry."""
        self._classes.clear()

    def register(self, classname: str, cls: "SchemaType") -> None:
        """Add a class to the registry. When a class is registered, an entry for
        both its classname and its full, module-qualified path are added.

        Example: ::

            class MyClass:
                pass

            registry.register('MyClass', MyClass)
            # Registry:
            # {
            #   'MyClass': [path.to.MyClass],
            #   'path.to.MyClass': [path.to.MyClass],
            # }

        """
        classes = self._classes
        # Module where the class is located
        module = cls.__module__
        # Full module path to the class
        # e.g. user.schemas.UserSchema
        fullpath = ".".join([module, classname])
        # If the class is already registered; need to check if the entries are
        # in the same module as cls to avoid having multiple instances of the same
        # class in the registry
        if classname in classes and not any(
            each.__module__ == module for each in classes[classname]
        ):
            classes[classname].append(cls)
        elif classname not in classes:
            classes[classname] = [cls]

        # Also register the full path
        if fullpath not in classes:
            classes.setdefault(fullpath, []).append(cls)
        else:
            # If fullpath does exist, replace existing entry
            classes[fullpath] = [cls]

    def get_class(
        self, classname: str, all: bool = False
    ) -> typing.Union[typing.List["SchemaType"], "SchemaType"]:
        """Retrieve a class from the registry.

        :raises: marshmallow.exceptions.RegistryError if the class cannot be found
            or if there are multiple entries for the given class name.
        """
        try:
            classes = self._classes[classname]
        except KeyError as error:
            raise RegistryError(
                "Class with name {!r} was not found. You may need "
                "to import the class.".format(classname)
            ) from error
        if len(classes) > 1:
            if all:
                return classes
            raise RegistryError(
                "Multiple classes with name {!r} "
                "were found. Please use the full, "
                "module-qualified path.".format(classname)
            )
        return classes[0]


#: The registry used by schemas whose ``class Meta`` does not set ``registry``.
default_registry = ClassRegistry()


def register(classname: str, cls: "SchemaType") -> None:
    """Add a class to the default registry (see :meth:`ClassRegistry.register`)."""
    default_registry.register(classname, cls)


def get_class(
    classname: str, all: bool = False
) -> typing.Union[typing.List["SchemaType"], "SchemaType"]:
    """Retrieve a class from the default registry (see :meth:`ClassRegistry.get_class`).

    :raises: marshmallow.exceptions.RegistryError if the class cannot be found
        or if there are multiple entries for the given class name.
    """
    return default_registry.get_class(classname, all=all)


def __getattr__(name: str) -> typing.Any:
    if name == "_registry":
        warnings.warn(
            "marshmallow.class_registry._registry is deprecated. "
            "Use marshmallow.class_registry.default_registry instead.",
            DeprecationWarning,
            stacklevel=2,
        )
        return default_registry._classes
    raise AttributeError("module {!r} has no attribute {!r}".format(__name__, name))
