import Foundation
import ModelGraph

/// A photo of a trip and its thumbnail, both kept as bytes in the store.
///
/// Declared as in SwiftData; `.externalStorage` has no effect in ModelGraph: the bytes live in
/// the table's data column and in the store file.
class TripImage: PersistentModel {
  @Attribute(.externalStorage) var data: Data
  @Attribute var thumbnail: Data?
  @Relationship var trip: Trip?

  convenience init(data: Data) {
    self.init()
    self.data = data
  }

  /// Makes the thumbnail: every `stride`-th byte of the image.
  func makeThumbnail(stride: Int = 16) {
    thumbnail = Data(Swift.stride(from: 0, to: data.count, by: stride).map { data[$0] })
  }
}
