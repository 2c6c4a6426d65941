from codemods.rule import Rule
from codemods.suppressions import UNUSED_CODE, UNUSED_NAME
from codemods.targets import breaks


class UnusedSuppression(Rule):
    """A `# graphmend: ignore` comment that silences nothing.

    What it does:
        Reports a suppression comment (`# graphmend: ignore[GM101]` on a line, or alone on the line above)
        when no finding of the rules it names is on its line. The engine checks suppressions itself;
        this class gives the check its code, so it can be selected, ignored and documented like a rule.

    Why it breaks graph mode:
        It does not: a stale suppression hides nothing today, but it will silently hide the next real
        finding on that line. Codes of rules that did not run are not judged.

    Example:
        y = x * 2  # graphmend: ignore[GM101]
        # reported: nothing on this line is a GM101 finding

    Fix safety:
        No fix: remove the comment by hand (a suppression is a decision a person made).
    """

    CODE = UNUSED_CODE
    NAME = UNUSED_NAME
    BREAKS = breaks(hygiene=True, note="a suppression comment that silences nothing")
    FIX = "none"
