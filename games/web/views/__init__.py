"""The site's pages, by family: ``site`` (home, rules, the guided hand, health), ``accounts``,
``lobby`` (opening and finding matches, challenges), ``match`` (the table, moves, rematches,
the replay, reports), ``players`` (profiles, leaderboard, history) and ``settings``; ``common``
holds what several of them share. Each view reads through the selectors, writes through the
services and renders what presentation builds: no logic of its own beyond the request."""
