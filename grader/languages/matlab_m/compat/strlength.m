function n = strlength(str)
% MATLAB's strlength (R2016b) for char rows and cell arrays of them.
  if iscell(str)
    n = cellfun(@numel, str);
  else
    n = numel(str);
  end
end
