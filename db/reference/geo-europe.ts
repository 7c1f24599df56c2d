// European countries of the demo data. Region ids are ISO 3166-2 codes, the
// values stored in members.countryregion; names are the common English forms
// (the Dutch provinces keep their Dutch names, as Dutch members know them).
import type { Country } from './geo-types.ts'

export const EUROPE: Country[] = [
  {
    id: 'NL',
    name: 'Netherlands',
    language: 'nl',
    regions: [
      { id: 'NL-DR', name: 'Drenthe', cities: ['Assen', 'Emmen', 'Hoogeveen', 'Meppel'] },
      { id: 'NL-FL', name: 'Flevoland', cities: ['Almere', 'Lelystad', 'Dronten', 'Emmeloord'] },
      { id: 'NL-FR', name: 'Fryslân', cities: ['Leeuwarden', 'Sneek', 'Heerenveen', 'Drachten'] },
      { id: 'NL-GE', name: 'Gelderland', cities: ['Arnhem', 'Nijmegen', 'Apeldoorn', 'Ede'] },
      {
        id: 'NL-GR',
        name: 'Groningen',
        cities: ['Groningen', 'Delfzijl', 'Veendam', 'Stadskanaal'],
      },
      { id: 'NL-LI', name: 'Limburg', cities: ['Maastricht', 'Venlo', 'Heerlen', 'Roermond'] },
      {
        id: 'NL-NB',
        name: 'Noord-Brabant',
        cities: ['Eindhoven', 'Tilburg', 'Breda', "'s-Hertogenbosch", 'Helmond'],
      },
      {
        id: 'NL-NH',
        name: 'Noord-Holland',
        cities: ['Amsterdam', 'Haarlem', 'Alkmaar', 'Hilversum', 'Zaandam'],
      },
      { id: 'NL-OV', name: 'Overijssel', cities: ['Zwolle', 'Enschede', 'Deventer', 'Hengelo'] },
      { id: 'NL-UT', name: 'Utrecht', cities: ['Utrecht', 'Amersfoort', 'Nieuwegein', 'Zeist'] },
      { id: 'NL-ZE', name: 'Zeeland', cities: ['Middelburg', 'Vlissingen', 'Goes', 'Terneuzen'] },
      {
        id: 'NL-ZH',
        name: 'Zuid-Holland',
        cities: ['Rotterdam', 'Den Haag', 'Leiden', 'Delft', 'Dordrecht'],
      },
    ],
  },
  {
    id: 'BE',
    name: 'Belgium',
    language: 'nl',
    // Brussels belongs to no province, so the capital region is listed too;
    // Wallonia and Brussels members write French.
    regions: [
      {
        id: 'BE-BRU',
        name: 'Brussels-Capital Region',
        language: 'fr',
        cities: ['Brussels', 'Ixelles', 'Uccle'],
      },
      { id: 'BE-VAN', name: 'Antwerp', cities: ['Antwerp', 'Mechelen', 'Turnhout', 'Lier'] },
      { id: 'BE-VLI', name: 'Limburg', cities: ['Hasselt', 'Genk', 'Sint-Truiden', 'Tongeren'] },
      {
        id: 'BE-VOV',
        name: 'East Flanders',
        cities: ['Ghent', 'Aalst', 'Sint-Niklaas', 'Dendermonde'],
      },
      { id: 'BE-VBR', name: 'Flemish Brabant', cities: ['Leuven', 'Vilvoorde', 'Tienen', 'Halle'] },
      {
        id: 'BE-VWV',
        name: 'West Flanders',
        cities: ['Bruges', 'Kortrijk', 'Ostend', 'Roeselare'],
      },
      {
        id: 'BE-WBR',
        name: 'Walloon Brabant',
        language: 'fr',
        cities: ['Wavre', 'Nivelles', 'Waterloo'],
      },
      {
        id: 'BE-WHT',
        name: 'Hainaut',
        language: 'fr',
        cities: ['Charleroi', 'Mons', 'Tournai', 'La Louvière'],
      },
      {
        id: 'BE-WLG',
        name: 'Liège',
        language: 'fr',
        cities: ['Liège', 'Verviers', 'Seraing', 'Huy'],
      },
      {
        id: 'BE-WLX',
        name: 'Luxembourg',
        language: 'fr',
        cities: ['Arlon', 'Bastogne', 'Marche-en-Famenne'],
      },
      { id: 'BE-WNA', name: 'Namur', language: 'fr', cities: ['Namur', 'Dinant', 'Gembloux'] },
    ],
  },
  {
    id: 'DE',
    name: 'Germany',
    language: 'de',
    regions: [
      {
        id: 'DE-BW',
        name: 'Baden-Württemberg',
        cities: ['Stuttgart', 'Karlsruhe', 'Mannheim', 'Freiburg im Breisgau', 'Heidelberg'],
      },
      {
        id: 'DE-BY',
        name: 'Bavaria',
        cities: ['Munich', 'Nuremberg', 'Augsburg', 'Regensburg', 'Würzburg'],
      },
      { id: 'DE-BE', name: 'Berlin', cities: ['Berlin', 'Spandau', 'Köpenick'] },
      { id: 'DE-BB', name: 'Brandenburg', cities: ['Potsdam', 'Cottbus', 'Frankfurt (Oder)'] },
      { id: 'DE-HB', name: 'Bremen', cities: ['Bremen', 'Bremerhaven'] },
      { id: 'DE-HH', name: 'Hamburg', cities: ['Hamburg', 'Altona', 'Harburg'] },
      {
        id: 'DE-HE',
        name: 'Hesse',
        cities: ['Frankfurt am Main', 'Wiesbaden', 'Kassel', 'Darmstadt'],
      },
      {
        id: 'DE-MV',
        name: 'Mecklenburg-Vorpommern',
        cities: ['Rostock', 'Schwerin', 'Stralsund', 'Greifswald'],
      },
      {
        id: 'DE-NI',
        name: 'Lower Saxony',
        cities: ['Hanover', 'Braunschweig', 'Oldenburg', 'Osnabrück', 'Göttingen'],
      },
      {
        id: 'DE-NW',
        name: 'North Rhine-Westphalia',
        cities: ['Cologne', 'Düsseldorf', 'Dortmund', 'Essen', 'Münster'],
      },
      {
        id: 'DE-RP',
        name: 'Rhineland-Palatinate',
        cities: ['Mainz', 'Koblenz', 'Trier', 'Kaiserslautern'],
      },
      { id: 'DE-SL', name: 'Saarland', cities: ['Saarbrücken', 'Neunkirchen', 'Homburg'] },
      { id: 'DE-SN', name: 'Saxony', cities: ['Dresden', 'Leipzig', 'Chemnitz', 'Zwickau'] },
      {
        id: 'DE-ST',
        name: 'Saxony-Anhalt',
        cities: ['Magdeburg', 'Halle (Saale)', 'Dessau-Roßlau'],
      },
      {
        id: 'DE-SH',
        name: 'Schleswig-Holstein',
        cities: ['Kiel', 'Lübeck', 'Flensburg', 'Neumünster'],
      },
      { id: 'DE-TH', name: 'Thuringia', cities: ['Erfurt', 'Jena', 'Gera', 'Weimar'] },
    ],
  },
  {
    id: 'AT',
    name: 'Austria',
    language: 'de',
    regions: [
      { id: 'AT-1', name: 'Burgenland', cities: ['Eisenstadt', 'Neusiedl am See', 'Oberwart'] },
      { id: 'AT-2', name: 'Carinthia', cities: ['Klagenfurt', 'Villach', 'Wolfsberg'] },
      {
        id: 'AT-3',
        name: 'Lower Austria',
        cities: ['St. Pölten', 'Wiener Neustadt', 'Krems', 'Baden'],
      },
      { id: 'AT-4', name: 'Upper Austria', cities: ['Linz', 'Wels', 'Steyr', 'Gmunden'] },
      { id: 'AT-5', name: 'Salzburg', cities: ['Salzburg', 'Hallein', 'Zell am See'] },
      { id: 'AT-6', name: 'Styria', cities: ['Graz', 'Leoben', 'Kapfenberg'] },
      { id: 'AT-7', name: 'Tyrol', cities: ['Innsbruck', 'Kufstein', 'Lienz', 'Kitzbühel'] },
      { id: 'AT-8', name: 'Vorarlberg', cities: ['Bregenz', 'Dornbirn', 'Feldkirch'] },
      // Vienna is one city; its districts stand in for a second and third.
      { id: 'AT-9', name: 'Vienna', cities: ['Vienna', 'Donaustadt', 'Floridsdorf'] },
    ],
  },
  {
    id: 'GB',
    name: 'United Kingdom',
    language: 'en',
    regions: [
      {
        id: 'GB-ENG',
        name: 'England',
        cities: ['London', 'Manchester', 'Birmingham', 'Bristol', 'Leeds'],
      },
      { id: 'GB-SCT', name: 'Scotland', cities: ['Edinburgh', 'Glasgow', 'Aberdeen', 'Dundee'] },
      { id: 'GB-WLS', name: 'Wales', cities: ['Cardiff', 'Swansea', 'Newport', 'Wrexham'] },
      { id: 'GB-NIR', name: 'Northern Ireland', cities: ['Belfast', 'Derry', 'Lisburn', 'Newry'] },
    ],
  },
  {
    id: 'IE',
    name: 'Ireland',
    language: 'en',
    regions: [
      { id: 'IE-C', name: 'Connacht', cities: ['Galway', 'Sligo', 'Castlebar', 'Ballina'] },
      { id: 'IE-L', name: 'Leinster', cities: ['Dublin', 'Kilkenny', 'Wexford', 'Drogheda'] },
      { id: 'IE-M', name: 'Munster', cities: ['Cork', 'Limerick', 'Waterford', 'Killarney'] },
      { id: 'IE-U', name: 'Ulster', cities: ['Letterkenny', 'Cavan', 'Monaghan'] },
    ],
  },
  {
    id: 'IT',
    name: 'Italy',
    language: 'it',
    regions: [
      { id: 'IT-21', name: 'Piedmont', cities: ['Turin', 'Novara', 'Alessandria', 'Asti'] },
      { id: 'IT-25', name: 'Lombardy', cities: ['Milan', 'Bergamo', 'Brescia', 'Como', 'Monza'] },
      { id: 'IT-34', name: 'Veneto', cities: ['Venice', 'Verona', 'Padua', 'Vicenza'] },
      { id: 'IT-42', name: 'Liguria', cities: ['Genoa', 'La Spezia', 'Savona', 'Sanremo'] },
      { id: 'IT-45', name: 'Emilia-Romagna', cities: ['Bologna', 'Modena', 'Parma', 'Rimini'] },
      { id: 'IT-52', name: 'Tuscany', cities: ['Florence', 'Pisa', 'Siena', 'Livorno', 'Lucca'] },
      { id: 'IT-62', name: 'Lazio', cities: ['Rome', 'Latina', 'Viterbo', 'Frosinone'] },
      { id: 'IT-72', name: 'Campania', cities: ['Naples', 'Salerno', 'Caserta'] },
      { id: 'IT-75', name: 'Apulia', cities: ['Bari', 'Lecce', 'Taranto', 'Foggia'] },
      { id: 'IT-82', name: 'Sicily', cities: ['Palermo', 'Catania', 'Messina', 'Syracuse'] },
      { id: 'IT-88', name: 'Sardinia', cities: ['Cagliari', 'Sassari', 'Olbia'] },
    ],
  },
  {
    id: 'FR',
    name: 'France',
    language: 'fr',
    regions: [
      {
        id: 'FR-ARA',
        name: 'Auvergne-Rhône-Alpes',
        cities: ['Lyon', 'Grenoble', 'Saint-Étienne', 'Clermont-Ferrand', 'Annecy'],
      },
      { id: 'FR-BFC', name: 'Bourgogne-Franche-Comté', cities: ['Dijon', 'Besançon', 'Auxerre'] },
      { id: 'FR-BRE', name: 'Brittany', cities: ['Rennes', 'Brest', 'Quimper', 'Saint-Malo'] },
      {
        id: 'FR-CVL',
        name: 'Centre-Val de Loire',
        cities: ['Orléans', 'Tours', 'Bourges', 'Chartres'],
      },
      {
        id: 'FR-GES',
        name: 'Grand Est',
        cities: ['Strasbourg', 'Reims', 'Metz', 'Nancy', 'Mulhouse'],
      },
      { id: 'FR-HDF', name: 'Hauts-de-France', cities: ['Lille', 'Amiens', 'Roubaix', 'Calais'] },
      {
        id: 'FR-IDF',
        name: 'Île-de-France',
        cities: ['Paris', 'Versailles', 'Boulogne-Billancourt', 'Saint-Denis'],
      },
      { id: 'FR-NOR', name: 'Normandy', cities: ['Rouen', 'Caen', 'Le Havre', 'Cherbourg'] },
      {
        id: 'FR-NAQ',
        name: 'Nouvelle-Aquitaine',
        cities: ['Bordeaux', 'Limoges', 'Poitiers', 'La Rochelle', 'Pau'],
      },
      {
        id: 'FR-OCC',
        name: 'Occitanie',
        cities: ['Toulouse', 'Montpellier', 'Nîmes', 'Perpignan'],
      },
      {
        id: 'FR-PDL',
        name: 'Pays de la Loire',
        cities: ['Nantes', 'Angers', 'Le Mans', 'Saint-Nazaire'],
      },
      {
        id: 'FR-PAC',
        name: "Provence-Alpes-Côte d'Azur",
        cities: ['Marseille', 'Nice', 'Toulon', 'Aix-en-Provence', 'Avignon'],
      },
      { id: 'FR-20R', name: 'Corsica', cities: ['Ajaccio', 'Bastia', 'Porto-Vecchio'] },
    ],
  },
  {
    id: 'ES',
    name: 'Spain',
    language: 'es',
    regions: [
      {
        id: 'ES-AN',
        name: 'Andalusia',
        cities: ['Seville', 'Málaga', 'Granada', 'Córdoba', 'Cádiz'],
      },
      { id: 'ES-AR', name: 'Aragon', cities: ['Zaragoza', 'Huesca', 'Teruel'] },
      { id: 'ES-AS', name: 'Asturias', cities: ['Oviedo', 'Gijón', 'Avilés'] },
      {
        id: 'ES-CN',
        name: 'Canary Islands',
        cities: ['Las Palmas', 'Santa Cruz de Tenerife', 'La Laguna'],
      },
      {
        id: 'ES-CL',
        name: 'Castile and León',
        cities: ['Valladolid', 'Burgos', 'Salamanca', 'León'],
      },
      { id: 'ES-CM', name: 'Castilla-La Mancha', cities: ['Toledo', 'Albacete', 'Guadalajara'] },
      { id: 'ES-CT', name: 'Catalonia', cities: ['Barcelona', 'Girona', 'Tarragona', 'Lleida'] },
      { id: 'ES-GA', name: 'Galicia', cities: ['Vigo', 'A Coruña', 'Santiago de Compostela'] },
      { id: 'ES-IB', name: 'Balearic Islands', cities: ['Palma', 'Ibiza', 'Manacor'] },
      {
        id: 'ES-MD',
        name: 'Community of Madrid',
        cities: ['Madrid', 'Alcalá de Henares', 'Getafe'],
      },
      { id: 'ES-MC', name: 'Region of Murcia', cities: ['Murcia', 'Cartagena', 'Lorca'] },
      {
        id: 'ES-PV',
        name: 'Basque Country',
        cities: ['Bilbao', 'San Sebastián', 'Vitoria-Gasteiz'],
      },
      {
        id: 'ES-VC',
        name: 'Valencian Community',
        cities: ['Valencia', 'Alicante', 'Elche', 'Castellón'],
      },
    ],
  },
  {
    id: 'PL',
    name: 'Poland',
    language: 'pl',
    // ISO 3166-2:PL has used numeric voivodeship codes since 2018.
    regions: [
      { id: 'PL-02', name: 'Lower Silesian', cities: ['Wrocław', 'Wałbrzych', 'Legnica'] },
      { id: 'PL-04', name: 'Kuyavian-Pomeranian', cities: ['Bydgoszcz', 'Toruń', 'Włocławek'] },
      { id: 'PL-06', name: 'Lublin', cities: ['Lublin', 'Zamość', 'Chełm'] },
      { id: 'PL-08', name: 'Lubusz', cities: ['Zielona Góra', 'Gorzów Wielkopolski'] },
      { id: 'PL-10', name: 'Łódź', cities: ['Łódź', 'Piotrków Trybunalski', 'Skierniewice'] },
      { id: 'PL-12', name: 'Lesser Poland', cities: ['Kraków', 'Tarnów', 'Nowy Sącz', 'Zakopane'] },
      { id: 'PL-14', name: 'Masovian', cities: ['Warsaw', 'Radom', 'Płock'] },
      { id: 'PL-16', name: 'Opole', cities: ['Opole', 'Kędzierzyn-Koźle', 'Nysa'] },
      { id: 'PL-18', name: 'Subcarpathian', cities: ['Rzeszów', 'Przemyśl', 'Krosno'] },
      { id: 'PL-20', name: 'Podlaskie', cities: ['Białystok', 'Suwałki', 'Łomża'] },
      { id: 'PL-22', name: 'Pomeranian', cities: ['Gdańsk', 'Gdynia', 'Sopot', 'Słupsk'] },
      {
        id: 'PL-24',
        name: 'Silesian',
        cities: ['Katowice', 'Częstochowa', 'Gliwice', 'Bielsko-Biała'],
      },
      { id: 'PL-26', name: 'Holy Cross', cities: ['Kielce', 'Ostrowiec Świętokrzyski'] },
      { id: 'PL-28', name: 'Warmian-Masurian', cities: ['Olsztyn', 'Elbląg', 'Ełk'] },
      { id: 'PL-30', name: 'Greater Poland', cities: ['Poznań', 'Kalisz', 'Konin'] },
      { id: 'PL-32', name: 'West Pomeranian', cities: ['Szczecin', 'Koszalin', 'Świnoujście'] },
    ],
  },
]
