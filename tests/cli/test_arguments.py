"""The readers of the command line's arguments (cli/arguments.py, errors.py) at their boundaries."""

import difflib

from mmlab.errors import INT64_MAX, did_you_mean, whole_number


def test_a_whole_number_is_read_exactly_up_to_int64_and_past_it_as_out_of_range():
    """Every whole number int64 holds (19 digits and fewer) is read as it is; one past either end of
    int64 comes back as +-(INT64_MAX + 1), so that a range check refuses it (whole_number's docstring)."""
    for value in (10**18, 10**18 + 7, INT64_MAX, -INT64_MAX, 999_999_999_999_999_999):
        assert whole_number(str(value)) == value, value
    assert whole_number(str(INT64_MAX + 1)) == INT64_MAX + 1
    assert whole_number(str(-(INT64_MAX + 1))) == -(INT64_MAX + 1)
    assert whole_number("1" + "0" * 19) == INT64_MAX + 1  # (20 digits: not read digit by digit)
    assert whole_number("000" + str(INT64_MAX)) == INT64_MAX  # (leading zeros are not digits that count)


def test_a_name_is_suggested_from_difflibs_ratio_of_0_6():
    """did_you_mean suggests a choice whose difflib ratio to the word is at least 0.6 (its docstring):
    'abcxy' and 'abcde' share 3 of their 10 characters' worth (2 * 3 / 10 = 0.6), 'abxy' and 'abcd'
    2 of 8 (0.5)."""
    assert difflib.SequenceMatcher(None, "abcxy", "abcde").ratio() == 0.6
    assert difflib.SequenceMatcher(None, "abxy", "abcd").ratio() == 0.5
    assert did_you_mean("abcxy", ["abcde"]) == " (did you mean 'abcde'?)"
    assert did_you_mean("abxy", ["abcd"]) == ""
    assert did_you_mean("abcxy", ["zzzzz", "abcde", "abcdx"]) == " (did you mean 'abcdx'?)"  # the closest (0.8)


def test_an_unknown_option_is_answered_with_one_of_difflibs_ratio_0_75():
    """main._did_you_mean names the option closest to an unknown one when difflib's ratio reaches 0.75:
    '--abcdxy' and '--abcdef' share '--abcd' (2 * 6 / 16 = 0.75); '--abcxyz' only '--abc' (0.625)."""
    import argparse

    from mmlab.cli.main import _did_you_mean

    p = argparse.ArgumentParser()
    p.add_argument("--abcdef")
    assert _did_you_mean(p, ["--abcdxy"]) == "; did you mean --abcdef?"
    assert _did_you_mean(p, ["--abcxyz"]) == ""


def test_a_bounded_whole_number_takes_both_of_its_ends():
    """int_at_least(minimum, what, maximum) takes minimum..maximum and nothing past either end, as
    'mmlab serve --port' takes 1..65535."""
    import argparse

    import pytest

    from mmlab.cli.arguments import int_at_least, positive

    port = int_at_least(1, "--port", 65535)
    assert (port("1"), port("65535")) == (1, 65535)
    for past in ("0", "65536"):
        with pytest.raises(argparse.ArgumentTypeError):
            port(past)
    seconds = positive(float, "--time-limit", most=60)
    assert (seconds("1e-9"), seconds("60")) == (1e-9, 60.0)
    for past in ("0", "-1", "60.000001", "inf", "nan"):
        with pytest.raises(argparse.ArgumentTypeError):
            seconds(past)


def test_eval_takes_from_1_to_max_secrets_secrets():
    """eval --secrets N (or sample:N) takes N from 1 to MAX_SECRETS, both ends included (_secret_count)."""
    import pytest

    from mmlab.cli.engine import _secret_count
    from mmlab.errors import MastermindError
    from mmlab.experiments.secret_sets import MAX_SECRETS

    assert [_secret_count(t) for t in ("1", str(MAX_SECRETS), f"sample:{MAX_SECRETS}")] == [1, MAX_SECRETS, MAX_SECRETS]
    for past in ("0", str(MAX_SECRETS + 1), "sample:0", "-1"):
        with pytest.raises(MastermindError, match="from 1 to"):
            _secret_count(past)
