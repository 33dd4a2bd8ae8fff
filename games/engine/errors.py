"""Why an action was refused, in words a player understands.

Every refusal is an ``IllegalAction`` (a ``ValueError``); the subclasses let callers and tests
tell the cases apart without parsing messages. The message is English; ``code`` and ``params``
say the same thing as data, so that the site can say it in the player's language
(``games.presentation.refusals``) without parsing it.
"""


class IllegalAction(ValueError):
    """The action is not allowed in this state; the state is unchanged."""

    def __init__(self, message: str, code: str = "", **params):
        super().__init__(message)
        self.code = code
        self.params = params


class MatchOver(IllegalAction):
    pass


class NotYourTurn(IllegalAction):
    pass


class WrongPhase(IllegalAction):
    """The kind of action does not fit the moment (bidding while cards are being played...)."""


class UnknownAction(IllegalAction):
    """The action could not be read at all (unknown word, card or suit)."""


class CardNotHeld(IllegalAction):
    pass


class MustFollowSuit(IllegalAction):
    pass


class SuitTurnedDown(IllegalAction):
    pass


class DealerMustName(IllegalAction):
    """Stick the dealer: the dealer may not pass in round two."""


class DealerMustTakeUp(IllegalAction):
    pass
