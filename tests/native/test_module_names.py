"""Every module of the package is reached by its dotted name: no package binds a function, class or constant
under the name of one of its own modules.

Such a name hides one of the two: `import attention_playground.compute as m` gave wire.py's function when the
module that computes a scene was called compute.py (now scene_stages.py; the same for attention.py, now
attention_maths.py, and model/head_scene.py, now model/scenes.py), and importing the script model/train.py
replaced the function `attention_playground.model.train` with the script (now model/make_checkpoint.py).
"""

import importlib
import importlib.util
import pkgutil
from types import ModuleType

import attention_playground

#: The one module that may refuse to import: the notebook widget, without its optional dependency.
OPTIONAL = {"attention_playground.widget": 'pip install "attention-playground[notebook]"'}


def package_modules():
    """Every module and subpackage of the package, by dotted name, found on disk (nothing imported)."""
    return sorted(info.name for info in pkgutil.walk_packages(attention_playground.__path__, "attention_playground."))


def packages():
    return ["attention_playground", *(name for name in package_modules()
                                      if importlib.util.find_spec(name).submodule_search_locations is not None)]


def test_the_package_has_the_modules_this_test_walks():
    names = package_modules()
    assert {"attention_playground.wire", "attention_playground.scene_stages", "attention_playground.model",
            "attention_playground.model.training", "attention_playground.exercises.runner"} <= set(names)


def test_no_package_binds_a_name_of_one_of_its_modules_to_anything_else():
    """Checked on each package as its own __init__ leaves it, before anything imports the rest."""
    for package_name in packages():
        package = importlib.import_module(package_name)
        for info in pkgutil.iter_modules(package.__path__):
            bound = getattr(package, info.name, None)
            assert bound is None or isinstance(bound, ModuleType), (
                f"{package_name}.{info.name} is a module, but {package_name} binds that name to {bound!r}")
        assert not set(getattr(package, "__all__", ())) & {info.name for info in pkgutil.iter_modules(package.__path__)}


def test_importing_every_module_by_its_dotted_name_gives_that_module():
    for name in package_modules():
        namespace = {}
        try:
            exec(f"import {name} as module", namespace)  # noqa: S102  the statement a reader would type
        except ImportError as error:
            assert name in OPTIONAL and OPTIONAL[name] in str(error), f"{name}: {error}"
            continue
        module = namespace["module"]
        assert isinstance(module, ModuleType) and module.__name__ == name, f"import {name} gave {module!r}"


def test_the_exported_functions_named_like_old_modules_are_still_functions_once_every_module_is_imported():
    """`compute`, `attention`, `model.head_scene` and `model.train` are the functions docs/reference.md and docs/model.md document."""
    for name in package_modules():
        try:
            importlib.import_module(name)
        except ImportError:
            assert name in OPTIONAL
    import attention_playground.model as model

    exported = {
        attention_playground.compute: "attention_playground.wire",
        attention_playground.attention: "attention_playground.attention_maths",
        model.head_scene: "attention_playground.model.scenes",
        model.train: "attention_playground.model.training",
    }
    for function, module in exported.items():
        assert callable(function) and not isinstance(function, ModuleType) and function.__module__ == module
