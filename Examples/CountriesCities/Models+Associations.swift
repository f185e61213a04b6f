import SQLiteRecord

/// The relation between the sample's two tables, declared once: `cities.country_id` holds a country's id.
extension Country {
    /// A country's cities.
    static let cities = hasMany(City.self)
}

extension City {
    /// A city's country.
    static let country = belongsTo(Country.self)

    /// Listed so that `country.save(db, children: &cities)` sets each city's `country_id` from the
    /// declaration, on SQLite and PostgreSQL alike (and `createTable` and `validateSchema` know the foreign
    /// key).
    static let parentAssociations: [any ParentAssociation] = [country]
}

/// A country with its cities, as an eager load decodes it.
struct CountryWithCities: Decodable, Equatable {
    var country: Country
    var cities: [City]
}
