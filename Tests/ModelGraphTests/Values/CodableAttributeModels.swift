import Foundation
import ModelGraph

/// A `Codable` struct without ``CompositeValue``.
struct CAWeather: Codable, Equatable, Hashable {
  var summary: String
  var celsius: Double
}

/// A raw-value enum without ``PersistentValue``.
enum CAStatus: String, Codable, Equatable {
  case draft
  case published
}

/// An enum with associated values.
enum CAPayment: Codable, Equatable {
  case cash
  case card(last4: String, expires: Date?)
  case transfer(String, amount: Decimal)
}

/// Every new attribute type, declared as SwiftData code declares them.
final class CAItem: PersistentModel {
  @Attribute var name: String
  @Attribute var labels: [String: String]
  @Attribute var counts: [String: Int]
  @Attribute var tags: Set<String>
  @Attribute var numbers: Set<Int>
  @Attribute var weather: CAWeather
  @Attribute var status: CAStatus
  @Attribute var payment: CAPayment
  @Attribute var optionalPayment: CAPayment?
  @Attribute var history: [CAPayment] = []
  @Attribute var forecast: [Int: CAWeather]?
  @Attribute var places: Set<CAWeather> = []

  convenience init(_ name: String) {
    self.init()
    self.name = name
    labels = [:]
    counts = [:]
    tags = []
    numbers = []
    weather = CAWeather(summary: "", celsius: 0)
    status = .draft
    payment = .cash
  }
}

let sunny = CAWeather(summary: "sunny", celsius: 24.5)
let rainy = CAWeather(summary: "rain", celsius: -3.25)
let card = CAPayment.card(last4: "4242", expires: Date(timeIntervalSince1970: 1_900_000_000))

/// An item with every attribute set to a value other than its zero.
func makeFilledItem(_ name: String = "filled") -> CAItem {
  let item = CAItem(name)
  item.labels = ["color": "red", "size": "L", "": "empty key"]
  item.counts = ["apples": 3, "pears": -1]
  item.tags = ["b", "a", "ü"]
  item.numbers = [3, 1, 2, .max]
  item.weather = sunny
  item.status = .published
  item.payment = card
  item.optionalPayment = .transfer("IBAN", amount: Decimal(string: "12.34")!)
  item.history = [.cash, card]
  item.forecast = [1: sunny, 2: rainy]
  item.places = [sunny, rainy]
  return item
}

/// Checks that `item` holds what ``makeFilledItem(_:)`` set.
func isFilled(_ item: CAItem) -> Bool {
  item.labels == ["color": "red", "size": "L", "": "empty key"]
    && item.counts == ["apples": 3, "pears": -1] && item.tags == ["a", "b", "ü"]
    && item.numbers == [1, 2, 3, .max] && item.weather == sunny && item.status == .published
    && item.payment == card
    && item.optionalPayment == .transfer("IBAN", amount: Decimal(string: "12.34")!)
    && item.history == [.cash, card] && item.forecast == [1: sunny, 2: rainy]
    && item.places == [sunny, rainy]
}
