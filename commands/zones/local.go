package zones

// localNames are a language's names for the major cities and their
// countries: what a member of that language may type, and what their
// picker shows. A zone or country missing from a table is shown in
// English.
type localNames struct {
	cities    map[string]string // zone → city
	countries map[string]string // ISO 3166 code → country
	// latin: the language writes the English city name for a major city
	// it has no entry for (Berlin is Berlin in German), so its label still
	// leads with the city, in the local order.
	latin bool
}

// locals are the languages Search speaks besides English, by the codes of
// package lang (a code it does not know searches in English).
var locals = map[string]localNames{
	"ko":    {cities: koreanCities(), countries: koreanCountries},
	"ja":    {cities: japaneseCities, countries: japaneseCountries},
	"es":    {cities: spanishCities, countries: spanishCountries, latin: true},
	"pt-BR": {cities: portugueseCities, countries: portugueseCountries, latin: true},
	"de":    {cities: germanCities, countries: germanCountries, latin: true},
	"fr":    {cities: frenchCities, countries: frenchCountries, latin: true},
}

func koreanCities() map[string]string {
	m := make(map[string]string, len(majorCities))
	for _, c := range majorCities {
		m[c.zone] = c.korean
	}
	return m
}

var japaneseCities = map[string]string{
	"Asia/Seoul": "ソウル", "Asia/Tokyo": "東京", "Asia/Shanghai": "上海", "Asia/Hong_Kong": "香港", "Asia/Taipei": "台北",
	"Asia/Macau": "マカオ", "Asia/Singapore": "シンガポール", "Asia/Bangkok": "バンコク", "Asia/Ho_Chi_Minh": "ホーチミン",
	"Asia/Manila": "マニラ", "Asia/Jakarta": "ジャカルタ", "Asia/Kuala_Lumpur": "クアラルンプール", "Asia/Kolkata": "コルカタ",
	"Asia/Dubai": "ドバイ", "Asia/Tashkent": "タシケント", "Asia/Almaty": "アルマトイ", "Asia/Ulaanbaatar": "ウランバートル",
	"Asia/Vladivostok": "ウラジオストク", "Asia/Jerusalem": "エルサレム", "Asia/Riyadh": "リヤド", "Asia/Tehran": "テヘラン",
	"Asia/Karachi": "カラチ", "Asia/Dhaka": "ダッカ", "Asia/Kathmandu": "カトマンズ", "Australia/Sydney": "シドニー",
	"Australia/Melbourne": "メルボルン", "Australia/Brisbane": "ブリスベン", "Australia/Perth": "パース",
	"Australia/Adelaide": "アデレード", "Pacific/Auckland": "オークランド", "Pacific/Honolulu": "ホノルル", "Pacific/Guam": "グアム",
	"Europe/London": "ロンドン", "Europe/Dublin": "ダブリン", "Europe/Paris": "パリ", "Europe/Berlin": "ベルリン",
	"Europe/Madrid": "マドリード", "Europe/Rome": "ローマ", "Europe/Amsterdam": "アムステルダム", "Europe/Brussels": "ブリュッセル",
	"Europe/Vienna": "ウィーン", "Europe/Zurich": "チューリッヒ", "Europe/Stockholm": "ストックホルム", "Europe/Oslo": "オスロ",
	"Europe/Copenhagen": "コペンハーゲン", "Europe/Helsinki": "ヘルシンキ", "Europe/Warsaw": "ワルシャワ", "Europe/Prague": "プラハ",
	"Europe/Budapest": "ブダペスト", "Europe/Athens": "アテネ", "Europe/Istanbul": "イスタンブール", "Europe/Moscow": "モスクワ",
	"Europe/Kyiv": "キーウ", "Europe/Lisbon": "リスボン", "Africa/Cairo": "カイロ", "Africa/Johannesburg": "ヨハネスブルグ",
	"Africa/Lagos": "ラゴス", "Africa/Nairobi": "ナイロビ", "America/New_York": "ニューヨーク", "America/Chicago": "シカゴ",
	"America/Denver": "デンバー", "America/Phoenix": "フェニックス", "America/Los_Angeles": "ロサンゼルス",
	"America/Anchorage": "アンカレッジ", "America/Toronto": "トロント", "America/Vancouver": "バンクーバー",
	"America/Mexico_City": "メキシコシティ", "America/Sao_Paulo": "サンパウロ", "America/Argentina/Buenos_Aires": "ブエノスアイレス",
	"America/Santiago": "サンティアゴ", "America/Bogota": "ボゴタ", "America/Lima": "リマ", "Asia/Pyongyang": "平壌",
}

var japaneseCountries = map[string]string{
	"KR": "韓国", "KP": "北朝鮮", "JP": "日本", "CN": "中国", "HK": "香港", "TW": "台湾", "MO": "マカオ",
	"SG": "シンガポール", "TH": "タイ", "VN": "ベトナム", "PH": "フィリピン", "ID": "インドネシア", "MY": "マレーシア", "IN": "インド",
	"AE": "アラブ首長国連邦", "UZ": "ウズベキスタン", "KZ": "カザフスタン", "MN": "モンゴル", "RU": "ロシア", "IL": "イスラエル",
	"SA": "サウジアラビア", "IR": "イラン", "PK": "パキスタン", "BD": "バングラデシュ", "NP": "ネパール", "AU": "オーストラリア",
	"NZ": "ニュージーランド", "US": "アメリカ", "GU": "グアム", "GB": "イギリス", "IE": "アイルランド", "FR": "フランス", "DE": "ドイツ", "ES": "スペイン",
	"IT": "イタリア", "NL": "オランダ", "BE": "ベルギー", "AT": "オーストリア", "CH": "スイス", "SE": "スウェーデン", "NO": "ノルウェー",
	"DK": "デンマーク", "FI": "フィンランド", "PL": "ポーランド", "CZ": "チェコ", "HU": "ハンガリー", "GR": "ギリシャ", "TR": "トルコ",
	"UA": "ウクライナ", "PT": "ポルトガル", "EG": "エジプト", "ZA": "南アフリカ", "NG": "ナイジェリア", "KE": "ケニア",
	"CA": "カナダ", "MX": "メキシコ", "BR": "ブラジル", "AR": "アルゼンチン", "CL": "チリ", "CO": "コロンビア", "PE": "ペルー",
}

var spanishCities = map[string]string{
	"Asia/Seoul": "Seúl", "Asia/Tokyo": "Tokio", "Asia/Shanghai": "Shanghái", "Asia/Hong_Kong": "Hong Kong", "Asia/Taipei": "Taipéi",
	"Asia/Macau": "Macao", "Asia/Singapore": "Singapur", "Asia/Bangkok": "Bangkok", "Asia/Ho_Chi_Minh": "Ciudad Ho Chi Minh",
	"Asia/Kuala_Lumpur": "Kuala Lumpur", "Asia/Kolkata": "Calcuta", "Asia/Dubai": "Dubái", "Asia/Almaty": "Almatý",
	"Asia/Ulaanbaatar": "Ulán Bator", "Asia/Vladivostok": "Vladivostok", "Asia/Jerusalem": "Jerusalén", "Asia/Riyadh": "Riad",
	"Asia/Tehran": "Teherán", "Asia/Kathmandu": "Katmandú", "Australia/Sydney": "Sídney", "Australia/Perth": "Perth",
	"Pacific/Auckland": "Auckland", "Pacific/Honolulu": "Honolulu", "Europe/London": "Londres", "Europe/Dublin": "Dublín",
	"Europe/Paris": "París", "Europe/Berlin": "Berlín", "Europe/Rome": "Roma", "Europe/Amsterdam": "Ámsterdam",
	"Europe/Brussels": "Bruselas", "Europe/Vienna": "Viena", "Europe/Zurich": "Zúrich", "Europe/Stockholm": "Estocolmo",
	"Europe/Copenhagen": "Copenhague", "Europe/Helsinki": "Helsinki", "Europe/Warsaw": "Varsovia", "Europe/Prague": "Praga",
	"Europe/Budapest": "Budapest", "Europe/Athens": "Atenas", "Europe/Istanbul": "Estambul", "Europe/Moscow": "Moscú",
	"Europe/Kyiv": "Kiev", "Europe/Lisbon": "Lisboa", "Africa/Cairo": "El Cairo", "Africa/Johannesburg": "Johannesburgo",
	"America/New_York": "Nueva York", "America/Los_Angeles": "Los Ángeles", "America/Mexico_City": "Ciudad de México",
	"America/Sao_Paulo": "São Paulo", "America/Bogota": "Bogotá", "Asia/Pyongyang": "Pionyang",
}

var spanishCountries = map[string]string{
	"KR": "Corea del Sur", "KP": "Corea del Norte", "JP": "Japón", "CN": "China", "HK": "Hong Kong", "TW": "Taiwán", "MO": "Macao",
	"SG": "Singapur", "TH": "Tailandia", "VN": "Vietnam", "PH": "Filipinas", "ID": "Indonesia", "MY": "Malasia", "IN": "India",
	"AE": "Emiratos Árabes Unidos", "UZ": "Uzbekistán", "KZ": "Kazajistán", "MN": "Mongolia", "RU": "Rusia", "IL": "Israel",
	"SA": "Arabia Saudí", "IR": "Irán", "PK": "Pakistán", "BD": "Bangladés", "NP": "Nepal", "AU": "Australia",
	"NZ": "Nueva Zelanda", "US": "Estados Unidos", "GU": "Guam", "GB": "Reino Unido", "IE": "Irlanda", "FR": "Francia", "DE": "Alemania", "ES": "España",
	"IT": "Italia", "NL": "Países Bajos", "BE": "Bélgica", "AT": "Austria", "CH": "Suiza", "SE": "Suecia", "NO": "Noruega",
	"DK": "Dinamarca", "FI": "Finlandia", "PL": "Polonia", "CZ": "Chequia", "HU": "Hungría", "GR": "Grecia", "TR": "Turquía",
	"UA": "Ucrania", "PT": "Portugal", "EG": "Egipto", "ZA": "Sudáfrica", "NG": "Nigeria", "KE": "Kenia",
	"CA": "Canadá", "MX": "México", "BR": "Brasil", "AR": "Argentina", "CL": "Chile", "CO": "Colombia", "PE": "Perú",
	"UY": "Uruguay", "VE": "Venezuela", "EC": "Ecuador", "BO": "Bolivia", "PY": "Paraguay", "CR": "Costa Rica", "GT": "Guatemala",
	"CU": "Cuba", "DO": "República Dominicana", "PA": "Panamá", "SV": "El Salvador", "HN": "Honduras", "NI": "Nicaragua", "PR": "Puerto Rico",
}

var portugueseCities = map[string]string{
	"Asia/Seoul": "Seul", "Asia/Tokyo": "Tóquio", "Asia/Shanghai": "Xangai", "Asia/Taipei": "Taipé", "Asia/Macau": "Macau",
	"Asia/Singapore": "Singapura", "Asia/Bangkok": "Bangkok", "Asia/Ho_Chi_Minh": "Cidade de Ho Chi Minh", "Asia/Kolkata": "Calcutá",
	"Asia/Dubai": "Dubai", "Asia/Ulaanbaatar": "Ulan Bator", "Asia/Jerusalem": "Jerusalém", "Asia/Riyadh": "Riad", "Asia/Tehran": "Teerã",
	"Asia/Kathmandu": "Katmandu", "Asia/Jakarta": "Jacarta", "Australia/Sydney": "Sydney", "Pacific/Auckland": "Auckland",
	"Europe/London": "Londres", "Europe/Paris": "Paris", "Europe/Berlin": "Berlim", "Europe/Rome": "Roma", "Europe/Amsterdam": "Amsterdã",
	"Europe/Brussels": "Bruxelas", "Europe/Vienna": "Viena", "Europe/Zurich": "Zurique", "Europe/Stockholm": "Estocolmo",
	"Europe/Copenhagen": "Copenhague", "Europe/Helsinki": "Helsinque", "Europe/Warsaw": "Varsóvia",
	"Europe/Prague": "Praga", "Europe/Budapest": "Budapeste", "Europe/Athens": "Atenas", "Europe/Istanbul": "Istambul",
	"Europe/Moscow": "Moscou", "Europe/Kyiv": "Kiev", "Europe/Lisbon": "Lisboa", "Africa/Cairo": "Cairo", "Africa/Johannesburg": "Joanesburgo",
	"America/New_York": "Nova York", "America/Mexico_City": "Cidade do México", "America/Sao_Paulo": "São Paulo",
	"America/Bogota": "Bogotá", "Asia/Pyongyang": "Pyongyang", "America/Argentina/Buenos_Aires": "Buenos Aires",
}

var portugueseCountries = map[string]string{
	"KR": "Coreia do Sul", "KP": "Coreia do Norte", "JP": "Japão", "CN": "China", "HK": "Hong Kong", "TW": "Taiwan", "MO": "Macau",
	"SG": "Singapura", "TH": "Tailândia", "VN": "Vietnã", "PH": "Filipinas", "ID": "Indonésia", "MY": "Malásia", "IN": "Índia",
	"AE": "Emirados Árabes Unidos", "UZ": "Uzbequistão", "KZ": "Cazaquistão", "MN": "Mongólia", "RU": "Rússia", "IL": "Israel",
	"SA": "Arábia Saudita", "IR": "Irã", "PK": "Paquistão", "BD": "Bangladesh", "NP": "Nepal", "AU": "Austrália",
	"NZ": "Nova Zelândia", "US": "Estados Unidos", "GU": "Guam", "GB": "Reino Unido", "IE": "Irlanda", "FR": "França", "DE": "Alemanha", "ES": "Espanha",
	"IT": "Itália", "NL": "Países Baixos", "BE": "Bélgica", "AT": "Áustria", "CH": "Suíça", "SE": "Suécia", "NO": "Noruega",
	"DK": "Dinamarca", "FI": "Finlândia", "PL": "Polônia", "CZ": "Tchéquia", "HU": "Hungria", "GR": "Grécia", "TR": "Turquia",
	"UA": "Ucrânia", "PT": "Portugal", "EG": "Egito", "ZA": "África do Sul", "NG": "Nigéria", "KE": "Quênia",
	"CA": "Canadá", "MX": "México", "BR": "Brasil", "AR": "Argentina", "CL": "Chile", "CO": "Colômbia", "PE": "Peru",
	"UY": "Uruguai", "PY": "Paraguai", "AO": "Angola", "MZ": "Moçambique",
}

var germanCities = map[string]string{
	"Asia/Seoul": "Seoul", "Asia/Tokyo": "Tokio", "Asia/Shanghai": "Shanghai", "Asia/Singapore": "Singapur",
	"Asia/Ho_Chi_Minh": "Ho-Chi-Minh-Stadt", "Asia/Kolkata": "Kalkutta", "Asia/Jerusalem": "Jerusalem", "Asia/Riyadh": "Riad",
	"Asia/Tehran": "Teheran", "Asia/Kathmandu": "Kathmandu", "Asia/Ulaanbaatar": "Ulaanbaatar", "Asia/Pyongyang": "Pjöngjang",
	"Europe/Brussels": "Brüssel", "Europe/Vienna": "Wien", "Europe/Zurich": "Zürich", "Europe/Copenhagen": "Kopenhagen",
	"Europe/Warsaw": "Warschau", "Europe/Prague": "Prag", "Europe/Athens": "Athen", "Europe/Moscow": "Moskau", "Europe/Kyiv": "Kyjiw",
	"Europe/Rome": "Rom", "Europe/Lisbon": "Lissabon", "Africa/Cairo": "Kairo", "America/Mexico_City": "Mexiko-Stadt",
	"America/Sao_Paulo": "São Paulo", "America/Bogota": "Bogotá",
}

var germanCountries = map[string]string{
	"KR": "Südkorea", "KP": "Nordkorea", "JP": "Japan", "CN": "China", "HK": "Hongkong", "TW": "Taiwan", "MO": "Macau",
	"SG": "Singapur", "TH": "Thailand", "VN": "Vietnam", "PH": "Philippinen", "ID": "Indonesien", "MY": "Malaysia", "IN": "Indien",
	"AE": "Vereinigte Arabische Emirate", "UZ": "Usbekistan", "KZ": "Kasachstan", "MN": "Mongolei", "RU": "Russland", "IL": "Israel",
	"SA": "Saudi-Arabien", "IR": "Iran", "PK": "Pakistan", "BD": "Bangladesch", "NP": "Nepal", "AU": "Australien",
	"NZ": "Neuseeland", "US": "Vereinigte Staaten", "GU": "Guam", "GB": "Vereinigtes Königreich", "IE": "Irland", "FR": "Frankreich", "DE": "Deutschland", "ES": "Spanien",
	"IT": "Italien", "NL": "Niederlande", "BE": "Belgien", "AT": "Österreich", "CH": "Schweiz", "SE": "Schweden", "NO": "Norwegen",
	"DK": "Dänemark", "FI": "Finnland", "PL": "Polen", "CZ": "Tschechien", "HU": "Ungarn", "GR": "Griechenland", "TR": "Türkei",
	"UA": "Ukraine", "PT": "Portugal", "EG": "Ägypten", "ZA": "Südafrika", "NG": "Nigeria", "KE": "Kenia",
	"CA": "Kanada", "MX": "Mexiko", "BR": "Brasilien", "AR": "Argentinien", "CL": "Chile", "CO": "Kolumbien", "PE": "Peru",
	"LU": "Luxemburg", "LI": "Liechtenstein",
}

var frenchCities = map[string]string{
	"Asia/Seoul": "Séoul", "Asia/Tokyo": "Tokyo", "Asia/Shanghai": "Shanghai", "Asia/Taipei": "Taipei", "Asia/Singapore": "Singapour",
	"Asia/Ho_Chi_Minh": "Hô-Chi-Minh-Ville", "Asia/Kolkata": "Calcutta", "Asia/Dubai": "Dubaï", "Asia/Tashkent": "Tachkent",
	"Asia/Ulaanbaatar": "Oulan-Bator", "Asia/Jerusalem": "Jérusalem", "Asia/Riyadh": "Riyad", "Asia/Tehran": "Téhéran",
	"Asia/Kathmandu": "Katmandou", "Asia/Pyongyang": "Pyongyang", "Australia/Sydney": "Sydney",
	"Europe/London": "Londres", "Europe/Berlin": "Berlin", "Europe/Rome": "Rome", "Europe/Brussels": "Bruxelles",
	"Europe/Vienna": "Vienne", "Europe/Zurich": "Zurich", "Europe/Copenhagen": "Copenhague", "Europe/Warsaw": "Varsovie",
	"Europe/Prague": "Prague", "Europe/Athens": "Athènes", "Europe/Moscow": "Moscou", "Europe/Kyiv": "Kyiv",
	"Europe/Lisbon": "Lisbonne", "Africa/Cairo": "Le Caire", "America/New_York": "New York", "America/Mexico_City": "Mexico",
	"America/Sao_Paulo": "São Paulo", "America/Bogota": "Bogota", "Pacific/Honolulu": "Honolulu",
	"America/Argentina/Buenos_Aires": "Buenos Aires",
}

var frenchCountries = map[string]string{
	"KR": "Corée du Sud", "KP": "Corée du Nord", "JP": "Japon", "CN": "Chine", "HK": "Hong Kong", "TW": "Taïwan", "MO": "Macao",
	"SG": "Singapour", "TH": "Thaïlande", "VN": "Viêt Nam", "PH": "Philippines", "ID": "Indonésie", "MY": "Malaisie", "IN": "Inde",
	"AE": "Émirats arabes unis", "UZ": "Ouzbékistan", "KZ": "Kazakhstan", "MN": "Mongolie", "RU": "Russie", "IL": "Israël",
	"SA": "Arabie saoudite", "IR": "Iran", "PK": "Pakistan", "BD": "Bangladesh", "NP": "Népal", "AU": "Australie",
	"NZ": "Nouvelle-Zélande", "US": "États-Unis", "GU": "Guam", "GB": "Royaume-Uni", "IE": "Irlande", "FR": "France", "DE": "Allemagne", "ES": "Espagne",
	"IT": "Italie", "NL": "Pays-Bas", "BE": "Belgique", "AT": "Autriche", "CH": "Suisse", "SE": "Suède", "NO": "Norvège",
	"DK": "Danemark", "FI": "Finlande", "PL": "Pologne", "CZ": "Tchéquie", "HU": "Hongrie", "GR": "Grèce", "TR": "Turquie",
	"UA": "Ukraine", "PT": "Portugal", "EG": "Égypte", "ZA": "Afrique du Sud", "NG": "Nigeria", "KE": "Kenya",
	"CA": "Canada", "MX": "Mexique", "BR": "Brésil", "AR": "Argentine", "CL": "Chili", "CO": "Colombie", "PE": "Pérou",
	"MA": "Maroc", "DZ": "Algérie", "TN": "Tunisie", "SN": "Sénégal", "CI": "Côte d'Ivoire", "LU": "Luxembourg", "MC": "Monaco",
	"RE": "La Réunion", "MQ": "Martinique", "GP": "Guadeloupe", "NC": "Nouvelle-Calédonie", "PF": "Polynésie française",
}
