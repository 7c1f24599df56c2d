// Where the known regions are (db/reference/geo.ts), for reverse geocoding without
// a network call: each region's main city plus, for large regions, a few more
// cities, as [lat, lon]. A place belongs to the region of its nearest anchor
// (within MAX_ANCHOR_KM). Approximate by design: it pre-fills a form field
// the member can change (spec §4 step 3), it decides nothing.
export type Anchor = readonly [name: string, lat: number, lon: number]

export const REGION_ANCHORS: Record<string, readonly Anchor[]> = {
  'NL-DR': [
    ['Assen', 52.99, 6.56],
    ['Emmen', 52.78, 6.9],
  ],
  'NL-FL': [
    ['Almere', 52.37, 5.22],
    ['Lelystad', 52.52, 5.47],
  ],
  'NL-FR': [
    ['Leeuwarden', 53.2, 5.79],
    ['Sneek', 53.03, 5.66],
  ],
  'NL-GE': [
    ['Arnhem', 51.98, 5.91],
    ['Nijmegen', 51.84, 5.86],
    ['Apeldoorn', 52.21, 5.97],
    ['Ede', 52.04, 5.67],
  ],
  'NL-GR': [['Groningen', 53.22, 6.57]],
  'NL-LI': [
    ['Maastricht', 50.85, 5.69],
    ['Venlo', 51.37, 6.17],
    ['Roermond', 51.19, 5.99],
  ],
  'NL-NB': [
    ['Eindhoven', 51.44, 5.47],
    ['Tilburg', 51.56, 5.09],
    ['Breda', 51.59, 4.78],
    ["'s-Hertogenbosch", 51.69, 5.3],
  ],
  'NL-NH': [
    ['Amsterdam', 52.37, 4.9],
    ['Haarlem', 52.38, 4.64],
    ['Alkmaar', 52.63, 4.75],
    ['Hilversum', 52.22, 5.18],
  ],
  'NL-OV': [
    ['Zwolle', 52.52, 6.08],
    ['Enschede', 52.22, 6.89],
    ['Deventer', 52.25, 6.16],
  ],
  'NL-UT': [
    ['Utrecht', 52.09, 5.12],
    ['Amersfoort', 52.16, 5.39],
  ],
  'NL-ZE': [
    ['Middelburg', 51.5, 3.61],
    ['Terneuzen', 51.33, 3.83],
  ],
  'NL-ZH': [
    ['Rotterdam', 51.92, 4.48],
    ['The Hague', 52.07, 4.3],
    ['Leiden', 52.16, 4.49],
    ['Dordrecht', 51.81, 4.67],
  ],
  'BE-BRU': [['Brussels', 50.85, 4.35]],
  'BE-VAN': [
    ['Antwerp', 51.22, 4.4],
    ['Mechelen', 51.03, 4.48],
    ['Turnhout', 51.32, 4.94],
  ],
  'BE-VLI': [
    ['Hasselt', 50.93, 5.34],
    ['Genk', 50.97, 5.5],
  ],
  'BE-VOV': [
    ['Ghent', 51.05, 3.72],
    ['Aalst', 50.94, 4.04],
  ],
  'BE-VBR': [['Leuven', 50.88, 4.7]],
  'BE-VWV': [
    ['Bruges', 51.21, 3.22],
    ['Kortrijk', 50.83, 3.26],
    ['Ostend', 51.23, 2.91],
  ],
  'BE-WBR': [['Wavre', 50.72, 4.61]],
  'BE-WHT': [
    ['Charleroi', 50.41, 4.44],
    ['Mons', 50.45, 3.95],
    ['Tournai', 50.61, 3.39],
  ],
  'BE-WLG': [
    ['Liège', 50.63, 5.57],
    ['Verviers', 50.59, 5.86],
  ],
  'BE-WLX': [
    ['Arlon', 49.68, 5.82],
    ['Bastogne', 50.0, 5.72],
  ],
  'BE-WNA': [
    ['Namur', 50.47, 4.87],
    ['Dinant', 50.26, 4.91],
  ],
  'DE-BW': [
    ['Stuttgart', 48.78, 9.18],
    ['Karlsruhe', 49.01, 8.4],
    ['Freiburg im Breisgau', 47.99, 7.85],
    ['Ulm', 48.4, 9.99],
  ],
  'DE-BY': [
    ['Munich', 48.14, 11.58],
    ['Nuremberg', 49.45, 11.08],
    ['Augsburg', 48.37, 10.9],
    ['Regensburg', 49.01, 12.1],
    ['Würzburg', 49.79, 9.95],
  ],
  'DE-BE': [['Berlin', 52.52, 13.4]],
  'DE-BB': [
    ['Potsdam', 52.39, 13.06],
    ['Cottbus', 51.76, 14.33],
    ['Frankfurt (Oder)', 52.34, 14.55],
  ],
  'DE-HB': [
    ['Bremen', 53.08, 8.8],
    ['Bremerhaven', 53.54, 8.58],
  ],
  'DE-HH': [['Hamburg', 53.55, 9.99]],
  'DE-HE': [
    ['Frankfurt am Main', 50.11, 8.68],
    ['Kassel', 51.31, 9.48],
    ['Wiesbaden', 50.08, 8.24],
  ],
  'DE-MV': [
    ['Rostock', 54.09, 12.1],
    ['Schwerin', 53.63, 11.41],
    ['Greifswald', 54.09, 13.38],
  ],
  'DE-NI': [
    ['Hanover', 52.37, 9.73],
    ['Osnabrück', 52.28, 8.05],
    ['Oldenburg', 53.14, 8.21],
    ['Göttingen', 51.54, 9.93],
    ['Braunschweig', 52.27, 10.52],
  ],
  'DE-NW': [
    ['Cologne', 50.94, 6.96],
    ['Düsseldorf', 51.23, 6.78],
    ['Dortmund', 51.51, 7.47],
    ['Münster', 51.96, 7.63],
    ['Bielefeld', 52.02, 8.53],
  ],
  'DE-RP': [
    ['Mainz', 50.0, 8.27],
    ['Koblenz', 50.36, 7.59],
    ['Trier', 49.75, 6.64],
  ],
  'DE-SL': [['Saarbrücken', 49.24, 6.99]],
  'DE-SN': [
    ['Dresden', 51.05, 13.74],
    ['Leipzig', 51.34, 12.37],
    ['Chemnitz', 50.83, 12.92],
  ],
  'DE-ST': [
    ['Magdeburg', 52.13, 11.63],
    ['Halle (Saale)', 51.48, 11.97],
  ],
  'DE-SH': [
    ['Kiel', 54.32, 10.14],
    ['Lübeck', 53.87, 10.69],
    ['Flensburg', 54.79, 9.44],
  ],
  'DE-TH': [
    ['Erfurt', 50.98, 11.03],
    ['Jena', 50.93, 11.59],
  ],
  'AT-1': [['Eisenstadt', 47.85, 16.52]],
  'AT-2': [
    ['Klagenfurt', 46.62, 14.31],
    ['Villach', 46.61, 13.85],
  ],
  'AT-3': [
    ['St. Pölten', 48.2, 15.63],
    ['Wiener Neustadt', 47.81, 16.24],
  ],
  'AT-4': [
    ['Linz', 48.31, 14.29],
    ['Wels', 48.16, 14.03],
  ],
  'AT-5': [['Salzburg', 47.81, 13.04]],
  'AT-6': [
    ['Graz', 47.07, 15.44],
    ['Leoben', 47.38, 15.09],
  ],
  'AT-7': [
    ['Innsbruck', 47.27, 11.4],
    ['Lienz', 46.83, 12.77],
  ],
  'AT-8': [
    ['Bregenz', 47.5, 9.75],
    ['Feldkirch', 47.24, 9.6],
  ],
  'AT-9': [['Vienna', 48.21, 16.37]],
  'GB-ENG': [
    ['London', 51.51, -0.13],
    ['Birmingham', 52.49, -1.89],
    ['Manchester', 53.48, -2.24],
    ['Leeds', 53.8, -1.55],
    ['Newcastle upon Tyne', 54.98, -1.61],
    ['Bristol', 51.45, -2.59],
    ['Plymouth', 50.37, -4.14],
    ['Norwich', 52.63, 1.3],
    ['Liverpool', 53.41, -2.98],
    ['Carlisle', 54.89, -2.93],
  ],
  'GB-SCT': [
    ['Edinburgh', 55.95, -3.19],
    ['Glasgow', 55.86, -4.25],
    ['Aberdeen', 57.15, -2.09],
    ['Inverness', 57.48, -4.22],
  ],
  'GB-WLS': [
    ['Cardiff', 51.48, -3.18],
    ['Swansea', 51.62, -3.94],
    ['Aberystwyth', 52.42, -4.08],
    ['Bangor', 53.23, -4.13],
  ],
  'GB-NIR': [
    ['Belfast', 54.6, -5.93],
    ['Derry', 55.0, -7.31],
  ],
  'IE-C': [
    ['Galway', 53.27, -9.05],
    ['Sligo', 54.27, -8.47],
  ],
  'IE-L': [
    ['Dublin', 53.35, -6.26],
    ['Athlone', 53.42, -7.94],
  ],
  'IE-M': [
    ['Cork', 51.9, -8.47],
    ['Limerick', 52.66, -8.63],
    ['Waterford', 52.26, -7.11],
  ],
  'IE-U': [['Letterkenny', 54.95, -7.73]],
  'IT-21': [
    ['Turin', 45.07, 7.69],
    ['Novara', 45.45, 8.62],
  ],
  'IT-25': [
    ['Milan', 45.46, 9.19],
    ['Bergamo', 45.7, 9.67],
    ['Brescia', 45.54, 10.22],
  ],
  'IT-34': [
    ['Venice', 45.44, 12.32],
    ['Verona', 45.44, 10.99],
    ['Padua', 45.41, 11.88],
  ],
  'IT-42': [
    ['Genoa', 44.41, 8.93],
    ['La Spezia', 44.1, 9.82],
  ],
  'IT-45': [
    ['Bologna', 44.49, 11.34],
    ['Parma', 44.8, 10.33],
    ['Rimini', 44.06, 12.57],
  ],
  'IT-52': [
    ['Florence', 43.77, 11.26],
    ['Pisa', 43.72, 10.4],
    ['Siena', 43.32, 11.33],
  ],
  'IT-62': [
    ['Rome', 41.9, 12.5],
    ['Latina', 41.47, 12.9],
  ],
  'IT-72': [
    ['Naples', 40.85, 14.27],
    ['Salerno', 40.68, 14.77],
  ],
  'IT-75': [
    ['Bari', 41.12, 16.87],
    ['Lecce', 40.35, 18.17],
    ['Foggia', 41.46, 15.55],
  ],
  'IT-82': [
    ['Palermo', 38.12, 13.36],
    ['Catania', 37.5, 15.09],
    ['Messina', 38.19, 15.55],
  ],
  'IT-88': [
    ['Cagliari', 39.22, 9.12],
    ['Sassari', 40.73, 8.56],
  ],
  'FR-ARA': [
    ['Lyon', 45.76, 4.84],
    ['Grenoble', 45.19, 5.72],
    ['Clermont-Ferrand', 45.78, 3.08],
    ['Saint-Étienne', 45.44, 4.39],
  ],
  'FR-BFC': [
    ['Dijon', 47.32, 5.04],
    ['Besançon', 47.24, 6.02],
  ],
  'FR-BRE': [
    ['Rennes', 48.11, -1.68],
    ['Brest', 48.39, -4.49],
  ],
  'FR-CVL': [
    ['Orléans', 47.9, 1.91],
    ['Tours', 47.39, 0.69],
  ],
  'FR-GES': [
    ['Strasbourg', 48.57, 7.75],
    ['Reims', 49.26, 4.03],
    ['Metz', 49.12, 6.18],
    ['Nancy', 48.69, 6.18],
  ],
  'FR-HDF': [
    ['Lille', 50.63, 3.06],
    ['Amiens', 49.89, 2.3],
  ],
  'FR-IDF': [['Paris', 48.86, 2.35]],
  'FR-NOR': [
    ['Rouen', 49.44, 1.1],
    ['Caen', 49.18, -0.37],
  ],
  'FR-NAQ': [
    ['Bordeaux', 44.84, -0.58],
    ['Limoges', 45.83, 1.26],
    ['Poitiers', 46.58, 0.34],
    ['Pau', 43.3, -0.37],
  ],
  'FR-OCC': [
    ['Toulouse', 43.6, 1.44],
    ['Montpellier', 43.61, 3.88],
    ['Nîmes', 43.84, 4.36],
  ],
  'FR-PDL': [
    ['Nantes', 47.22, -1.55],
    ['Angers', 47.47, -0.56],
    ['Le Mans', 48.0, 0.2],
  ],
  'FR-PAC': [
    ['Marseille', 43.3, 5.37],
    ['Nice', 43.7, 7.27],
    ['Avignon', 43.95, 4.81],
  ],
  'FR-20R': [
    ['Ajaccio', 41.93, 8.74],
    ['Bastia', 42.7, 9.45],
  ],
  'ES-AN': [
    ['Seville', 37.39, -5.98],
    ['Málaga', 36.72, -4.42],
    ['Granada', 37.18, -3.6],
    ['Córdoba', 37.89, -4.78],
    ['Almería', 36.84, -2.46],
  ],
  'ES-AR': [
    ['Zaragoza', 41.65, -0.89],
    ['Huesca', 42.14, -0.41],
    ['Teruel', 40.34, -1.11],
  ],
  'ES-AS': [
    ['Oviedo', 43.36, -5.85],
    ['Gijón', 43.53, -5.66],
  ],
  'ES-CN': [
    ['Las Palmas', 28.12, -15.44],
    ['Santa Cruz de Tenerife', 28.47, -16.25],
  ],
  'ES-CL': [
    ['Valladolid', 41.65, -4.72],
    ['León', 42.6, -5.57],
    ['Salamanca', 40.97, -5.66],
    ['Burgos', 42.34, -3.7],
  ],
  'ES-CM': [
    ['Toledo', 39.86, -4.02],
    ['Albacete', 38.99, -1.86],
    ['Ciudad Real', 38.99, -3.93],
    ['Cuenca', 40.07, -2.14],
  ],
  'ES-CT': [
    ['Barcelona', 41.39, 2.17],
    ['Tarragona', 41.12, 1.25],
    ['Lleida', 41.62, 0.62],
    ['Girona', 41.98, 2.82],
  ],
  'ES-GA': [
    ['Vigo', 42.24, -8.72],
    ['A Coruña', 43.36, -8.41],
    ['Lugo', 43.01, -7.56],
  ],
  'ES-IB': [['Palma', 39.57, 2.65]],
  'ES-MD': [['Madrid', 40.42, -3.7]],
  'ES-MC': [
    ['Murcia', 37.99, -1.13],
    ['Cartagena', 37.6, -0.98],
  ],
  'ES-PV': [
    ['Bilbao', 43.26, -2.93],
    ['San Sebastián', 43.32, -1.98],
    ['Vitoria-Gasteiz', 42.85, -2.67],
  ],
  'ES-VC': [
    ['Valencia', 39.47, -0.38],
    ['Alicante', 38.35, -0.48],
    ['Castellón de la Plana', 39.99, -0.05],
  ],
  'PL-02': [
    ['Wrocław', 51.11, 17.04],
    ['Legnica', 51.21, 16.16],
  ],
  'PL-04': [
    ['Bydgoszcz', 53.12, 18.01],
    ['Toruń', 53.01, 18.6],
  ],
  'PL-06': [
    ['Lublin', 51.25, 22.57],
    ['Zamość', 50.72, 23.25],
  ],
  'PL-08': [
    ['Zielona Góra', 51.94, 15.51],
    ['Gorzów Wielkopolski', 52.73, 15.24],
  ],
  'PL-10': [['Łódź', 51.76, 19.46]],
  'PL-12': [
    ['Kraków', 50.06, 19.94],
    ['Tarnów', 50.01, 20.99],
  ],
  'PL-14': [
    ['Warsaw', 52.23, 21.01],
    ['Radom', 51.4, 21.15],
    ['Płock', 52.55, 19.71],
  ],
  'PL-16': [['Opole', 50.67, 17.93]],
  'PL-18': [
    ['Rzeszów', 50.04, 22.0],
    ['Przemyśl', 49.78, 22.77],
  ],
  'PL-20': [
    ['Białystok', 53.13, 23.16],
    ['Suwałki', 54.1, 22.93],
  ],
  'PL-22': [
    ['Gdańsk', 54.35, 18.65],
    ['Słupsk', 54.46, 17.03],
  ],
  'PL-24': [
    ['Katowice', 50.26, 19.02],
    ['Częstochowa', 50.81, 19.12],
  ],
  'PL-26': [['Kielce', 50.87, 20.63]],
  'PL-28': [
    ['Olsztyn', 53.78, 20.48],
    ['Elbląg', 54.16, 19.4],
  ],
  'PL-30': [
    ['Poznań', 52.41, 16.93],
    ['Kalisz', 51.76, 18.09],
    ['Piła', 53.15, 16.74],
  ],
  'PL-32': [
    ['Szczecin', 53.43, 14.55],
    ['Koszalin', 54.19, 16.17],
  ],
  'US-AZ': [
    ['Phoenix', 33.45, -112.07],
    ['Tucson', 32.22, -110.97],
    ['Flagstaff', 35.2, -111.65],
  ],
  'US-CA': [
    ['Los Angeles', 34.05, -118.24],
    ['San Francisco', 37.77, -122.42],
    ['San Diego', 32.72, -117.16],
    ['Sacramento', 38.58, -121.49],
    ['Fresno', 36.74, -119.79],
    ['Redding', 40.59, -122.39],
  ],
  'US-CO': [
    ['Denver', 39.74, -104.99],
    ['Grand Junction', 39.06, -108.55],
    ['Pueblo', 38.25, -104.61],
  ],
  'US-FL': [
    ['Miami', 25.76, -80.19],
    ['Orlando', 28.54, -81.38],
    ['Tampa', 27.95, -82.46],
    ['Jacksonville', 30.33, -81.66],
    ['Tallahassee', 30.44, -84.28],
  ],
  'US-GA': [
    ['Atlanta', 33.75, -84.39],
    ['Savannah', 32.08, -81.09],
    ['Macon', 32.84, -83.63],
  ],
  'US-IL': [
    ['Chicago', 41.88, -87.63],
    ['Springfield', 39.78, -89.65],
    ['Carbondale', 37.73, -89.22],
  ],
  'US-MA': [
    ['Boston', 42.36, -71.06],
    ['Springfield', 42.1, -72.59],
  ],
  'US-NY': [
    ['New York City', 40.71, -74.01],
    ['Buffalo', 42.89, -78.88],
    ['Albany', 42.65, -73.76],
    ['Rochester', 43.16, -77.61],
    ['Syracuse', 43.05, -76.15],
  ],
  'US-OR': [
    ['Portland', 45.52, -122.68],
    ['Eugene', 44.05, -123.09],
    ['Bend', 44.06, -121.31],
    ['Medford', 42.33, -122.87],
  ],
  'US-PA': [
    ['Philadelphia', 39.95, -75.17],
    ['Pittsburgh', 40.44, -80.0],
    ['Harrisburg', 40.27, -76.88],
    ['Erie', 42.13, -80.09],
  ],
  'US-TX': [
    ['Houston', 29.76, -95.37],
    ['Dallas', 32.78, -96.8],
    ['Austin', 30.27, -97.74],
    ['San Antonio', 29.42, -98.49],
    ['El Paso', 31.76, -106.49],
    ['Lubbock', 33.58, -101.86],
    ['Amarillo', 35.22, -101.83],
  ],
  'US-WA': [
    ['Seattle', 47.61, -122.33],
    ['Spokane', 47.66, -117.43],
    ['Yakima', 46.6, -120.51],
  ],
  'CA-AB': [
    ['Calgary', 51.05, -114.07],
    ['Edmonton', 53.55, -113.49],
    ['Red Deer', 52.27, -113.81],
  ],
  'CA-BC': [
    ['Vancouver', 49.28, -123.12],
    ['Victoria', 48.43, -123.37],
    ['Kelowna', 49.89, -119.5],
    ['Prince George', 53.92, -122.75],
  ],
  'CA-MB': [
    ['Winnipeg', 49.9, -97.14],
    ['Brandon', 49.85, -99.95],
  ],
  'CA-NB': [
    ['Moncton', 46.09, -64.78],
    ['Fredericton', 45.96, -66.64],
    ['Saint John', 45.27, -66.06],
  ],
  'CA-NL': [
    ["St. John's", 47.56, -52.71],
    ['Corner Brook', 48.95, -57.95],
  ],
  'CA-NS': [
    ['Halifax', 44.65, -63.58],
    ['Sydney', 46.14, -60.19],
  ],
  'CA-ON': [
    ['Toronto', 43.65, -79.38],
    ['Ottawa', 45.42, -75.7],
    ['Windsor', 42.31, -83.04],
    ['Sudbury', 46.49, -80.99],
    ['Thunder Bay', 48.38, -89.25],
  ],
  'CA-PE': [['Charlottetown', 46.24, -63.13]],
  'CA-QC': [
    ['Montreal', 45.5, -73.57],
    ['Quebec City', 46.81, -71.21],
    ['Saguenay', 48.43, -71.07],
    ['Sherbrooke', 45.4, -71.89],
  ],
  'CA-SK': [
    ['Saskatoon', 52.13, -106.67],
    ['Regina', 50.45, -104.61],
  ],
  'AU-ACT': [['Canberra', -35.28, 149.13]],
  'AU-NSW': [
    ['Sydney', -33.87, 151.21],
    ['Newcastle', -32.93, 151.78],
    ['Wollongong', -34.42, 150.89],
    ['Dubbo', -32.25, 148.6],
    ['Wagga Wagga', -35.12, 147.37],
  ],
  'AU-NT': [
    ['Darwin', -12.46, 130.84],
    ['Alice Springs', -23.7, 133.88],
  ],
  'AU-QLD': [
    ['Brisbane', -27.47, 153.03],
    ['Cairns', -16.92, 145.77],
    ['Townsville', -19.26, 146.82],
    ['Rockhampton', -23.38, 150.51],
  ],
  'AU-SA': [
    ['Adelaide', -34.93, 138.6],
    ['Port Augusta', -32.49, 137.77],
  ],
  'AU-TAS': [
    ['Hobart', -42.88, 147.33],
    ['Launceston', -41.43, 147.14],
  ],
  'AU-VIC': [
    ['Melbourne', -37.81, 144.96],
    ['Ballarat', -37.56, 143.85],
    ['Bendigo', -36.76, 144.28],
  ],
  'AU-WA': [
    ['Perth', -31.95, 115.86],
    ['Bunbury', -33.33, 115.64],
    ['Geraldton', -28.77, 114.61],
  ],
  'NZ-AUK': [['Auckland', -36.85, 174.76]],
  'NZ-BOP': [
    ['Tauranga', -37.69, 176.17],
    ['Rotorua', -38.14, 176.25],
  ],
  'NZ-CAN': [
    ['Christchurch', -43.53, 172.64],
    ['Timaru', -44.4, 171.25],
  ],
  'NZ-HKB': [['Napier', -39.49, 176.91]],
  'NZ-MBH': [['Blenheim', -41.51, 173.96]],
  'NZ-MWT': [
    ['Palmerston North', -40.35, 175.61],
    ['Whanganui', -39.93, 175.05],
  ],
  'NZ-NTL': [['Whangārei', -35.73, 174.32]],
  'NZ-OTA': [
    ['Dunedin', -45.87, 170.5],
    ['Queenstown', -45.03, 168.66],
  ],
  'NZ-STL': [['Invercargill', -46.41, 168.35]],
  'NZ-TAS': [['Richmond', -41.34, 173.18]],
  'NZ-TKI': [['New Plymouth', -39.06, 174.08]],
  'NZ-WKO': [['Hamilton', -37.79, 175.28]],
  'NZ-WGN': [['Wellington', -41.29, 174.78]],
}
