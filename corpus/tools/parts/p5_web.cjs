const { s, i, n, b, e, a, o, T, OAI } = require('./h.cjs');
const bare = (t) => { const { id, name, ...rest } = t; return { name: id, ...rest }; };
const out = [];

// ---------------- browser (Playwright-like) ----------------
const ref = s('Element reference taken from the latest snapshot, e.g. "e42".');
const element = s('Human-readable description of the element, used to confirm intent, e.g. "Submit button".');
out.push(
T('browser', 'navigate', 'Open a URL in the current tab and wait for it to load.',
  { url: s('Address to open.', { format: 'uri' }), wait_until: e(['load', 'domcontentloaded', 'networkidle'], 'When navigation counts as finished.', 'load'), timeout_ms: i('Give up after this long.', { default: 30000 }) },
  ['url']),
T('browser', 'snapshot',
  ['Describe the open page as text: its accessibility tree of roles, names, values and states, with a ref on every element you can interact with.',
   'The refs are what click, type and fill_form take, so call this before acting on a page; a text tree also costs far fewer tokens than an image. Refs go stale whenever the page changes, so describe it again after navigating or submitting.'],
  {}, null, { title: 'Page snapshot' }),
T('browser', 'click', 'Click an element on the page.',
  { element, ref, button: e(['left', 'right', 'middle'], 'Mouse button.', 'left'), double_click: b('Double-click.', false),
    modifiers: a(e(['Alt', 'Control', 'Meta', 'Shift']), 'Keys held during the click.') }, ['element', 'ref']),
T('browser', 'type', 'Type text into an editable element.',
  { element, ref, text: s('Text to enter.'), submit: b('Press Enter afterwards.', false), slowly: b('Type one character at a time to trigger key handlers.', false) }, ['element', 'ref', 'text']),
T('browser', 'fill_form', 'Fill several form fields in one step.',
  { fields: a(o({ name: s('Field label.'), ref, type: e(['textbox', 'checkbox', 'radio', 'combobox', 'slider'], 'Control type.'), value: s('Value; "true"/"false" for checkboxes, option text for comboboxes.') }, ['name', 'ref', 'type', 'value']), 'Fields to set.', { minItems: 1 }) },
  ['fields']),
T('browser', 'take_screenshot', 'Capture an image of the viewport, the full page or one element.',
  { full_page: b('Capture the whole scrollable page.', false), ref: s('Capture only this element.'), type: e(['png', 'jpeg'], 'Image format.', 'png'), filename: s('Save to this file.') }),
T('browser', 'evaluate', 'Run a JavaScript function in the page (or on one element) and return its JSON-serialisable result.',
  { function: s('Function source, e.g. "() => document.title" or "(el) => el.textContent".'), ref: s('Element passed as the function\'s argument.') }, ['function']),
T('browser', 'wait_for', 'Wait until text appears or disappears, or for a fixed time.',
  { text: s('Text to wait for.'), text_gone: s('Text to wait to vanish.'), seconds: n('Time to wait.', { maximum: 60 }) }),
);

// ---------------- web_search ----------------
out.push(
T('web_search', 'search', 'Search the web and return titles, URLs and snippets.',
  { query: s('Search query.'), count: i('Number of results.', { default: 10, maximum: 20 }), country: s('Two-letter country code for localised results.'),
    safe_search: e(['off', 'moderate', 'strict'], 'Adult content filter.', 'moderate'), freshness: e(['day', 'week', 'month', 'year'], 'Only pages from this recent period.') },
  ['query'], { tags: ['internet', 'lookup'] }),
T('web_search', 'fetch_url', 'Download a web page and return its readable content as Markdown. Long pages can be read in chunks with start_index.',
  { url: s('Page URL.', { format: 'uri' }), format: e(['markdown', 'text', 'html'], 'Output format.', 'markdown'), max_length: i('Maximum characters.', { default: 5000 }), start_index: i('Character offset to start from.', { default: 0 }) },
  ['url'], { aliases: ['scrape page', 'read website'] }),
T('web_search', 'news', 'Recent news articles about a topic.', { query: s('Topic.'), since: s('Oldest publication date.', { format: 'date' }), language: s('ISO 639-1 code.') }, ['query']),
);

// ---------------- weather (OpenAI function shape) ----------------
const loc = s('City name ("Lisbon, PT"), postal code, or "lat,lon".');
out.push(
OAI('weather', 'get_forecast', 'Daily (and optionally hourly) weather forecast for a location: temperature range, precipitation chance, wind and conditions.',
  { location: loc, days: i('Days ahead, 1 to 14.', { minimum: 1, maximum: 14, default: 3 }), units: e(['metric', 'imperial'], 'Unit system.', 'metric'), hourly: b('Include hour-by-hour values.', false) },
  ['location']),
OAI('weather', 'get_current_conditions', 'Current temperature, feels-like, humidity, wind, UV index and air quality at a place.',
  { location: loc, units: { type: 'string', enum: ['metric', 'imperial'] } }, ['location', 'units'], { strict: true }),
OAI('weather', 'get_alerts', 'Active severe weather warnings (storms, floods, heat, wildfire smoke) for an area.',
  { location: loc, severity: e(['minor', 'moderate', 'severe', 'extreme'], 'Minimum severity.') }, ['location']),
);

// ---------------- maps ----------------
const latlng = o({ lat: n('Latitude.', { minimum: -90, maximum: 90 }), lng: n('Longitude.', { minimum: -180, maximum: 180 }) }, ['lat', 'lng']);
out.push(
OAI('maps', 'geocode', 'Turn an address or place name into coordinates.', { address: s('Address or place.'), region: s('Country bias, ccTLD code.') }, ['address']),
OAI('maps', 'get_directions', 'Plan a route between two places: total distance, travel time and each step of the way.',
  { origin: s('Start address or "lat,lng".'), destination: s('End address or "lat,lng".'), mode: e(['driving', 'walking', 'bicycling', 'transit'], 'Travel mode.', 'driving'),
    waypoints: a(s('Stop.'), 'Intermediate stops.'), avoid: a(e(['tolls', 'highways', 'ferries']), 'Features to avoid.'), departure_time: s('ISO time or "now", for traffic-aware estimates.') },
  ['origin', 'destination']),
T('maps', 'search_places', 'Find places such as restaurants, pharmacies or charging stations near a point.',
  { query: s('What to look for, e.g. "vegan restaurant".'), location: latlng, radius_m: i('Search radius in metres.', { default: 2000, maximum: 50000 }),
    open_now: b('Only places open now.', false), min_rating: n('Minimum rating 1-5.') }, ['query']),
T('maps', 'reverse_geocode', 'Turn coordinates into a street address.', { location: latlng }, ['location']),
);

// ---------------- translate ----------------
out.push(
T('translate', 'translate_text', 'Translate text between languages (翻译文本 · テキストを翻訳 · traducir texto). Accepts a single string or a batch.',
  { text: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, maxItems: 50 }], description: 'Text or list of texts.' },
    target_language: s('BCP-47 code, e.g. "de", "pt-BR", "zh-Hans".'), source_language: s('Source language; detected when omitted.'),
    formality: e(['default', 'more', 'less'], 'Register, for languages that distinguish it.', 'default'), glossary_id: s('Glossary with fixed term translations.') },
  ['text', 'target_language']),
T('translate', 'detect_language', 'Identify the language of a text, with a confidence score.', { text: s('Sample text.') }, ['text']),
T('translate', 'list_languages', 'List supported language codes and names.', null, null, { rawSchema: { type: 'object' } }),
);

// ---------------- image_gen ----------------
out.push(
T('image_gen', 'generate_image', 'Create images from a text prompt.',
  { prompt: s('Description of the picture.'), negative_prompt: s('Things to avoid.'), size: e(['512x512', '1024x1024', '1024x1792', '1792x1024'], 'Resolution.', '1024x1024'),
    n: i('Number of images.', { minimum: 1, maximum: 4, default: 1 }), style: e(['photo', 'illustration', '3d', 'pixel-art', 'watercolor'], 'Visual style.'), seed: i('Fix for reproducible output.') },
  ['prompt']),
T('image_gen', 'edit_image', 'Change part of an image: paint in the transparent area of a mask following a prompt (inpainting).',
  { image: s('Source image path or URL.'), mask: s('PNG whose transparent pixels mark the region to change.'), prompt: s('What the edited region should show.') }, ['image', 'prompt']),
T('image_gen', 'upscale_image', 'Increase image resolution.', { image: s('Image path or URL.'), factor: { type: 'integer', enum: [2, 4], default: 2, description: 'Scale factor.' } }, ['image']),
T('image_gen', 'remove_background', 'Cut out the subject and make the background transparent.', { image: s('Image path or URL.') }, ['image']),
);

// ---------------- stripe ----------------
const meta = o({}, null, 'Key-value pairs stored on the object.', { additionalProperties: { type: 'string' } });
out.push(
T('stripe', 'create_customer', 'Create a customer record for billing.',
  { email: s('Email.', { format: 'email' }), name: s('Full name or company.'), phone: s('Phone.'),
    address: o({ line1: s('Street.'), city: s('City.'), postal_code: s('Postal code.'), country: s('ISO 3166-1 alpha-2.') }, null, 'Billing address, used for tax.'), metadata: meta }),
T('stripe', 'create_payment_intent',
  ['Start collecting a payment. The amount is in the smallest currency unit (cents for USD, yen for JPY).',
   'With `capture_method: "manual"` the funds are only authorised and must be captured later. Returns the client secret the frontend needs to confirm the payment.'],
  { amount: i('Amount in minor units.', { minimum: 1 }), currency: s('Three-letter ISO code, lowercase.'), customer: s('Customer id (cus_…).'),
    payment_method_types: a(s('e.g. "card", "sepa_debit".'), 'Allowed methods; automatic when omitted.'), capture_method: e(['automatic', 'manual'], 'Capture immediately or later.', 'automatic'),
    description: s('Shown on the dashboard.'), metadata: meta },
  ['amount', 'currency']),
T('stripe', 'create_refund', 'Refund a payment fully or partially.',
  { payment_intent: s('PaymentIntent id (pi_…).'), amount: i('Partial amount in minor units; full refund when omitted.'), reason: e(['duplicate', 'fraudulent', 'requested_by_customer'], 'Reason.') },
  ['payment_intent']),
T('stripe', 'list_invoices', 'List invoices, filtered by customer, status or creation date.',
  { customer: s('Customer id.'), status: e(['draft', 'open', 'paid', 'uncollectible', 'void'], 'Invoice status.'),
    created: o({ gte: i('From, Unix time.'), lte: i('Until, Unix time.') }, null, 'Creation window.'), limit: i('Page size.', { default: 10, maximum: 100 }) }),
T('stripe', 'create_subscription', 'Subscribe a customer to one or more recurring prices.',
  { customer: s('Customer id.'), items: a(o({ price: s('Price id (price_…).'), quantity: i('Quantity.', { default: 1 }) }, ['price']), 'Prices to subscribe to.', { minItems: 1 }),
    trial_period_days: i('Free trial length.'), collection_method: e(['charge_automatically', 'send_invoice'], 'How invoices are paid.', 'charge_automatically') },
  ['customer', 'items']),
T('stripe', 'cancel_subscription', 'Cancel a subscription now or at the end of the billing period.',
  { subscription: s('Subscription id (sub_…).'), at_period_end: b('Keep it active until the period ends.', true), prorate: b('Credit unused time.', false) }, ['subscription']),
T('stripe', 'retrieve_balance', 'Show the account\'s available and pending funds.', null, null, { rawSchema: { type: 'object', properties: {} } }),
);

// ---------------- shopify ----------------
out.push(
T('shopify', 'list_products', 'List products in the store with variants, prices and stock.',
  { query: s('Search text (title, SKU, vendor, tag).'), status: e(['active', 'draft', 'archived'], 'Product status.', 'active'), first: i('Page size.', { default: 25, maximum: 250 }) }),
T('shopify', 'adjust_inventory', 'Set or change stock for a variant at a location.',
  { inventory_item_id: s('Inventory item id of the variant.'), location_id: s('Warehouse or store location.'),
    change: { anyOf: [o({ set_to: i('Absolute available quantity.') }, ['set_to']), o({ delta: i('Amount to add (negative to remove).') }, ['delta'])] },
    reason: e(['correction', 'received', 'damaged', 'shrinkage', 'restock'], 'Why stock changed.', 'correction') },
  ['inventory_item_id', 'location_id', 'change']),
T('shopify', 'get_order', 'Look up an order with its line items, customer, payment and fulfillment status.', { order: s('Order id or name like "#1042".') }, ['order']),
T('shopify', 'create_discount_code', 'Create a discount code for a percentage or fixed amount off.',
  { code: s('Code customers type at checkout.'), kind: e(['percentage', 'fixed_amount', 'free_shipping'], 'Discount type.'), value: n('Percent or amount.'),
    starts_at: s('Start.', { format: 'date-time' }), ends_at: s('End.', { format: 'date-time' }), usage_limit: i('Total uses allowed.'), once_per_customer: b('One use per customer.', false) },
  ['code', 'kind']),
);

// ---------------- fx / time: vocabulary mostly in parameters ----------------
out.push(
bare(T('fx', 'convert', 'Converts an amount.',
  { amount: n('Amount of money.'), from_currency: s('ISO 4217 currency code to convert from, e.g. "EUR".'), to_currency: s('ISO 4217 currency code to convert to.'),
    date: s('Use the exchange rate of this day; latest rate when omitted.', { format: 'date' }) },
  ['amount', 'from_currency', 'to_currency'])),
bare(T('time', 'convert_timezone', 'Show a moment in other zones.',
  { time: s('Timestamp or wall-clock time, e.g. "2025-03-10 09:00".'), from_zone: s('IANA time zone of the input, e.g. "America/New_York".'),
    to_zones: a(s('IANA time zone.'), 'Zones to express the time in (daylight saving handled).', { minItems: 1 }) },
  ['time', 'to_zones'])),
);
module.exports = out;
