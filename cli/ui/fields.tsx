import { Box, Text } from 'ink';

/** One record as aligned `Label  value` lines, for the `get` commands. */
export function Fields({ fields }: { fields: Array<[label: string, value: string]> }) {
  const width = Math.max(...fields.map(([label]) => label.length)) + 1;
  return (
    <Box flexDirection="column">
      {fields.map(([label, value]) => (
        <Box key={label} flexDirection="row" columnGap={2}>
          <Box width={width} flexShrink={0}>
            <Text bold>{`${label}:`}</Text>
          </Box>
          <Text>{value}</Text>
        </Box>
      ))}
    </Box>
  );
}
