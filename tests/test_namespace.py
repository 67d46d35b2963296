"""``import mmlab`` gives every public name and every subpackage, each loaded when first used."""

import subprocess
import sys

import pytest

import mmlab
import mmlab.experiments


def fresh(code: str) -> str:
    """What ``code`` prints in a new interpreter (this one has imported everything already)."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_subpackages_are_attributes_after_import_mmlab_alone():
    assert fresh("import mmlab; print(mmlab.experiments.Store.__name__, mmlab.game.Game.__name__, "
                 "mmlab.experiments.store.Store.__name__)") == "Store Game Store"


@pytest.mark.parametrize("code", ["from mmlab.experiments import play_game",
                                  "from mmlab.experiments.chunk import play_chunk"])  # what a study's worker runs
def test_a_game_loop_loads_no_database_or_dataframes(code):
    assert fresh(f"import sys; {code}; print('duckdb' in sys.modules, 'pandas' in sys.modules)") == "False False"


@pytest.mark.parametrize("package", [mmlab, mmlab.experiments])
def test_every_public_name_resolves_and_a_missing_one_is_an_attribute_error(package):
    assert all(getattr(package, name) is not None for name in package.__all__)
    assert set(package.__all__) <= set(dir(package))
    with pytest.raises(AttributeError, match="has no attribute 'nothing_here'"):
        package.nothing_here


@pytest.mark.parametrize("package", [mmlab, mmlab.experiments])
def test_dir_shows_the_public_names_not_the_packages_own_helpers(package):
    public = {name for name in dir(package) if not name.startswith("__")}
    assert set(package.__all__) <= public and not public & {"TYPE_CHECKING", "annotations", "lazy_names", "_lazy"}
    assert all(not name.startswith("_") for name in public)
