from graphmend.rule import Rule
from graphmend.suppressions import UNUSED_CODE, UNUSED_NAME
from graphmend.targets import breaks


class UnusedSuppression(Rule):
    """A `# graphmend: ignore` comment that silences nothing.

    What it does:
        Reports a suppression comment (`# graphmend: ignore[GM101]` on a line, or alone on the line above)
        when no finding of the rules it names is on its line, and each code of an `ignore[...]` list that
        silences nothing (`ignore[GM101, GM301]` where only GM301 is reported). The engine checks
        suppressions itself;
        this class gives the check its code, so it can be selected, ignored and documented like a rule.

    Why it breaks graph mode:
        It does not: a stale suppression hides nothing today, but it will silently hide the next real
        finding on that line. Codes of rules that did not run are not judged.

    Example:
        y = x * 2  # graphmend: ignore[GM101]
        # reported: nothing on this line is a GM101 finding; fixed: y = x * 2

    Fix safety:
        Safe: the fix removes only what silences nothing, so every finding stays as it was. An unused code
        leaves the list (`ignore[GM101, GM301]` → `ignore[GM301]`); a comment that says more than the
        directive keeps its words (`# static here; graphmend: ignore[GM101]` → `# static here`); a bare
        directive goes with the spaces before it, or with its line when it stands alone. Without it, a
        `graphmend fix` pre-commit hook failed forever once `--add-ignore`'s comment went stale.
    """

    CODE = UNUSED_CODE
    NAME = UNUSED_NAME
    BREAKS = breaks(hygiene=True, note="a suppression comment that silences nothing")
    FIX = "safe"
