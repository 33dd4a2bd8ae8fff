"""A two-hand euchre bot for the site's API, with the standard library only.

    EUCHRE_TOKEN=euchre_... python euchre_bot.py [--url URL] [--computer medium]

It follows the account's stream, accepts every challenge, and plays each match that starts
with a policy: a function from the seat's view (``view["legal_actions"]``, ``view["hand"]``,
...) to one legal action. A rematch offered to it is answered by ``on_rematch(offer)``: True
accepts (by default, a person's offer; not another bot's). ``--computer`` starts one match
against the computer and stops when it ends. Write your own policy and pass it to ``Bot``.
"""

import argparse
import json
import os
import random
import sys
import threading
import time
import urllib.error
import urllib.request


class ApiError(Exception):
    def __init__(self, status, body):
        super().__init__(f"{status} {body.get('code')}: {body.get('detail')}")
        self.code = body.get("code")
        self.retry_after = body.get("retry_after", 1)


def people_only(offer):
    """Accept a rematch a person offers, not a bot (two bots would play on for ever). The
    offer: ``match_id``, ``offered_by`` (``username``, ``bot``), ``options``, ``until``."""
    return not offer["offered_by"]["bot"]


class Bot:
    def __init__(self, url, token, policy, on_rematch=people_only):
        if not url.startswith(("http://", "https://")):
            raise ValueError("the site's address starts with http:// or https://")
        self.url, self.token, self.policy = url.rstrip("/"), token, policy
        self.on_rematch = on_rematch

    def _open(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)  # noqa: S310 (http(s) only: see __init__)
        request.add_header("Authorization", f"Bearer {self.token}")
        request.add_header("Content-Type", "application/json")
        try:
            return urllib.request.urlopen(request, timeout=60)  # noqa: S310
        except urllib.error.HTTPError as error:
            raise ApiError(error.code, json.load(error)) from None

    def call(self, method, path, body=None):
        with self._open(method, path, body) as response:
            return json.load(response)

    def stream(self, path):
        """The events of a stream, one dict each (blank lines are heartbeats)."""
        with self._open("GET", path) as response:
            for line in response:
                if line.strip():
                    yield json.loads(line)

    def play(self, match_id):
        """Play one match to its end; a dropped stream reconnects from the last version.
        Once the match is over its stream stays open while a rematch may come, and the bot
        stays with it (at the table: an offer to a player who left lapses); it returns the
        match as it ended when the stream closes."""
        version = over = None
        while True:
            since = "" if version is None else f"?since={version}"
            try:
                for event in self.stream(f"/api/v1/stream/matches/{match_id}{since}"):
                    version = event.get("version", version)
                    if event["type"] == "state" and (over or self._act(event)):
                        over = over or event["match"]
                    elif event["type"] == "closed":
                        if over is None:  # its token was revoked, or the match closed to it
                            raise ApiError(401, event)
                        return over
            except OSError:  # the connection dropped: back with what we missed
                time.sleep(1)
            if over is not None:  # the stream ended after the match: nothing more to see
                return over

    def _act(self, event):
        """Move if it is our turn; True once the match is over."""
        match, view, seat = event["match"], event["view"], event["seat"]
        if match["status"] != "active":
            return True
        if view and view["turn"] == seat and view["legal_actions"]:
            move = {"action": self.policy(view), "version": match["version"]}
            while True:
                try:
                    self.call("POST", f"/api/v1/matches/{match['id']}/move", move)
                    break
                except ApiError as error:
                    if error.code == "too_many":  # the move limit: wait as told, then again
                        time.sleep(error.retry_after)
                    elif error.code == "stale":  # a newer state is on its way
                        break
                    else:
                        raise
        return False

    def run(self):
        """Accept every challenge and play every match that starts, each in a thread."""
        me = self.call("GET", "/api/v1/account")["id"]
        for event in self.stream("/api/v1/stream/account"):
            if event["type"] == "challenge" and event["challenge"]["challenged"]["id"] == me:
                # A moment first: the challenger's page is still loading after sending it, and
                # its socket must be open to be taken to the match when we accept.
                time.sleep(2)
                self.call("POST", f"/api/v1/challenges/{event['challenge']['id']}/accept")
            elif event["type"] == "rematchOffer" and event["direction"] == "in":
                self.answer_rematch(event)
            elif event["type"] == "matchStart":  # a rematch accepted too
                threading.Thread(target=self.play, args=(event["match"]["id"],)).start()

    def answer_rematch(self, offer):
        """Accept or decline a rematch offered to the bot, as ``on_rematch`` says."""
        answer = "accept" if self.on_rematch(offer) else "decline"
        try:
            self.call("POST", f"/api/v1/matches/{offer['match_id']}/rematch/{answer}")
        except ApiError as error:  # withdrawn or lapsed meanwhile: nothing to answer
            print(f"rematch of match {offer['match_id']}: {error}", file=sys.stderr)


def random_policy(view):
    """Any legal action: replace with your own (the view has the hand, trump, the trick...)."""
    return random.choice(view["legal_actions"])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=os.environ.get("EUCHRE_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--computer", choices=["easy", "medium", "hard"])
    parser.add_argument("--target", type=int, default=10)
    args = parser.parse_args()
    bot = Bot(args.url, os.environ["EUCHRE_TOKEN"], random_policy)
    if args.computer:
        body = {"strength": args.computer, "target": args.target}
        started = bot.call("POST", "/api/v1/matches/computer", body)
        over = bot.play(started["match"]["id"])
        print(json.dumps({"match": over["id"], "status": over["status"], "scores": over["scores"],
                          "winner": over["winner"]}))  # fmt: skip
    else:
        bot.run()
