// Countries of the demo data outside Europe. Region ids are ISO 3166-2 codes,
// the values stored in members.countryregion.
import type { Country } from './geo-types.ts'

export const WORLD: Country[] = [
  {
    id: 'US',
    name: 'United States',
    language: 'en',
    regions: [
      { id: 'US-AZ', name: 'Arizona', cities: ['Phoenix', 'Tucson', 'Mesa', 'Scottsdale'] },
      {
        id: 'US-CA',
        name: 'California',
        cities: ['Los Angeles', 'San Francisco', 'San Diego', 'Sacramento', 'San Jose'],
      },
      {
        id: 'US-CO',
        name: 'Colorado',
        cities: ['Denver', 'Colorado Springs', 'Boulder', 'Aurora'],
      },
      { id: 'US-FL', name: 'Florida', cities: ['Miami', 'Orlando', 'Tampa', 'Jacksonville'] },
      { id: 'US-GA', name: 'Georgia', cities: ['Atlanta', 'Savannah', 'Augusta', 'Athens'] },
      { id: 'US-IL', name: 'Illinois', cities: ['Chicago', 'Springfield', 'Naperville', 'Peoria'] },
      {
        id: 'US-MA',
        name: 'Massachusetts',
        cities: ['Boston', 'Cambridge', 'Worcester', 'Springfield'],
      },
      {
        id: 'US-NY',
        name: 'New York',
        cities: ['New York City', 'Buffalo', 'Rochester', 'Albany'],
      },
      { id: 'US-OR', name: 'Oregon', cities: ['Portland', 'Eugene', 'Salem', 'Bend'] },
      { id: 'US-PA', name: 'Pennsylvania', cities: ['Philadelphia', 'Pittsburgh', 'Harrisburg'] },
      {
        id: 'US-TX',
        name: 'Texas',
        cities: ['Houston', 'Austin', 'Dallas', 'San Antonio', 'El Paso'],
      },
      { id: 'US-WA', name: 'Washington', cities: ['Seattle', 'Spokane', 'Tacoma', 'Bellevue'] },
    ],
  },
  {
    id: 'CA',
    name: 'Canada',
    language: 'en',
    regions: [
      { id: 'CA-AB', name: 'Alberta', cities: ['Calgary', 'Edmonton', 'Red Deer', 'Lethbridge'] },
      {
        id: 'CA-BC',
        name: 'British Columbia',
        cities: ['Vancouver', 'Victoria', 'Kelowna', 'Surrey'],
      },
      { id: 'CA-MB', name: 'Manitoba', cities: ['Winnipeg', 'Brandon', 'Steinbach'] },
      { id: 'CA-NB', name: 'New Brunswick', cities: ['Moncton', 'Saint John', 'Fredericton'] },
      {
        id: 'CA-NL',
        name: 'Newfoundland and Labrador',
        cities: ["St. John's", 'Corner Brook', 'Gander'],
      },
      { id: 'CA-NS', name: 'Nova Scotia', cities: ['Halifax', 'Sydney', 'Truro'] },
      {
        id: 'CA-ON',
        name: 'Ontario',
        cities: ['Toronto', 'Ottawa', 'Hamilton', 'London', 'Kingston'],
      },
      { id: 'CA-PE', name: 'Prince Edward Island', cities: ['Charlottetown', 'Summerside'] },
      {
        id: 'CA-QC',
        name: 'Quebec',
        language: 'fr',
        cities: ['Montreal', 'Quebec City', 'Laval', 'Gatineau', 'Sherbrooke'],
      },
      { id: 'CA-SK', name: 'Saskatchewan', cities: ['Saskatoon', 'Regina', 'Prince Albert'] },
    ],
  },
  {
    id: 'AU',
    name: 'Australia',
    language: 'en',
    regions: [
      { id: 'AU-ACT', name: 'Australian Capital Territory', cities: ['Canberra', 'Belconnen'] },
      {
        id: 'AU-NSW',
        name: 'New South Wales',
        cities: ['Sydney', 'Newcastle', 'Wollongong', 'Coffs Harbour'],
      },
      {
        id: 'AU-NT',
        name: 'Northern Territory',
        cities: ['Darwin', 'Alice Springs', 'Palmerston'],
      },
      {
        id: 'AU-QLD',
        name: 'Queensland',
        cities: ['Brisbane', 'Gold Coast', 'Cairns', 'Townsville', 'Sunshine Coast'],
      },
      { id: 'AU-SA', name: 'South Australia', cities: ['Adelaide', 'Mount Gambier', 'Whyalla'] },
      { id: 'AU-TAS', name: 'Tasmania', cities: ['Hobart', 'Launceston', 'Devonport'] },
      { id: 'AU-VIC', name: 'Victoria', cities: ['Melbourne', 'Geelong', 'Ballarat', 'Bendigo'] },
      {
        id: 'AU-WA',
        name: 'Western Australia',
        cities: ['Perth', 'Fremantle', 'Bunbury', 'Broome'],
      },
    ],
  },
  {
    id: 'NZ',
    name: 'New Zealand',
    language: 'en',
    regions: [
      { id: 'NZ-AUK', name: 'Auckland', cities: ['Auckland', 'Manukau', 'North Shore'] },
      { id: 'NZ-BOP', name: 'Bay of Plenty', cities: ['Tauranga', 'Rotorua', 'Whakatāne'] },
      { id: 'NZ-CAN', name: 'Canterbury', cities: ['Christchurch', 'Timaru', 'Ashburton'] },
      { id: 'NZ-HKB', name: "Hawke's Bay", cities: ['Napier', 'Hastings', 'Havelock North'] },
      { id: 'NZ-MBH', name: 'Marlborough', cities: ['Blenheim', 'Picton'] },
      {
        id: 'NZ-MWT',
        name: 'Manawatū-Whanganui',
        cities: ['Palmerston North', 'Whanganui', 'Levin'],
      },
      { id: 'NZ-NTL', name: 'Northland', cities: ['Whangārei', 'Kerikeri', 'Kaitaia'] },
      { id: 'NZ-OTA', name: 'Otago', cities: ['Dunedin', 'Queenstown', 'Wānaka', 'Oamaru'] },
      { id: 'NZ-STL', name: 'Southland', cities: ['Invercargill', 'Gore', 'Te Anau'] },
      { id: 'NZ-TAS', name: 'Tasman', cities: ['Richmond', 'Motueka', 'Tākaka'] },
      { id: 'NZ-TKI', name: 'Taranaki', cities: ['New Plymouth', 'Hāwera', 'Stratford'] },
      { id: 'NZ-WKO', name: 'Waikato', cities: ['Hamilton', 'Taupō', 'Cambridge', 'Thames'] },
      {
        id: 'NZ-WGN',
        name: 'Wellington',
        cities: ['Wellington', 'Lower Hutt', 'Porirua', 'Masterton'],
      },
    ],
  },
]
