extension String {
  /// The text with each Windows line end (`\r\n`, one `Character` in Swift) as `\n`, so lines
  /// and columns count the same whichever line ends a script was saved with.
  var withUnixLineEnds: String {
    contains("\r\n") ? String(map { $0 == "\r\n" ? "\n" : $0 }) : self
  }
}
