# Match, deal and event-stream models arrive with the event store; the rules live in
# games/engine/, which must stay importable without Django.
