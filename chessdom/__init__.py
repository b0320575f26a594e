"""chessdom: provably optimal chessboard domination and independence, knight's tours,
shortest knight paths and N-Queens, as a library, a command and a JSON service."""
