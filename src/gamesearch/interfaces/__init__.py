"""The interfaces: the ``gamesearch`` command (:mod:`.cli`, with the chess and arena commands),
the UCI engine (:mod:`.uci_engine`), the web app (:mod:`.web`), and the objects they print or
serve (:mod:`.analysis`). They import everything below them; nothing imports them."""
